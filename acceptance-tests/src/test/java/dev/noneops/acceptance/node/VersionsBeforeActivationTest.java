package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.InstalledVersions;
import dev.noneops.core.node.Node;
import dev.noneops.testkit.fixtures.node.SimNode;
import org.junit.jupiter.api.Test;

/**
 * A version prepared before any is active (a bootstrap that stopped after installing, or {@code
 * prepare} alone) is listed, not active, with no reason to keep it: a prune refuses to run without
 * an active version, so the listing has nothing to say about pruning, and it does not fail.
 */
class VersionsBeforeActivationTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");

  @Test
  void aPreparedVersionIsListedInactiveWithoutKeepReasons() {
    SimNode lab = new SimNode();
    lab.publish(V1);
    Node node = lab.node(V1);
    node.prepare();

    InstalledVersions listed = node.inspect().installedVersions();

    assertThat(listed.activeVersion()).isNull();
    assertThat(listed.versions()).singleElement().satisfies(v -> {
      assertThat(v.version()).isEqualTo(lab.versionOf(V1));
      assertThat(v.active()).isFalse();
      assertThat(v.complete()).isTrue();
      assertThat(v.keptBecause()).isEmpty();
    });
  }
}
