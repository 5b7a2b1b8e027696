package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.UpgradeResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UpgradeSmokeTest {
  @Test
  void upgradesThenCommits() {
    SimNode lab = new SimNode();
    AgentConfig v1 = SimNode.config("1.31.2", "2.0.4", "blue");
    AgentConfig v2 = SimNode.config("1.31.3", "2.0.4", "blue");
    lab.bootstrap(v1);
    lab.publish(v2);
    Node node = lab.node(v2, Optional.of(v1));
    UpgradeResult result = node.upgrade();
    assertThat(result.targetVersion()).isEqualTo(lab.versionOf(v2));
    assertThat(lab.current()).contains(lab.versionOf(v2));
    assertThat(lab.stackActive()).isTrue();
    lab.persistApplied(v2);
    assertThat(node.commit()).isPresent();
  }
}
