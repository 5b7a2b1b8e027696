package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.ports.files.FileType;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every file the node writes that holds the cluster's bootstrap token (kubelet's bootstrap
 * kubeconfig, the applied configuration, an upgrade's saved configuration) is readable by root
 * alone: after a bootstrap with the agent and an upgrade, no such file but the operator's own
 * configuration file is readable by its group or by others.
 */
class TokenFilesAreRootsAloneTest {
  private static final String TOKEN = "abcdef.0123456789abcdef";
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");

  private final SimNode lab = new SimNode();

  @Test
  void noFileTheNodeWroteWithTheTokenIsReadableByOthers() throws IOException {
    assertThat(V1.kubelet().auth().bootstrapToken()).isEqualTo(TOKEN);
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    lab.node(V2, Optional.of(V1)).upgradeAndCommit(UpgradeOptions.DEFAULTS);

    List<String> holding = new ArrayList<>();
    List<String> exposed = new ArrayList<>();
    for (FileTreeSnapshot.Entry entry : lab.host.snapshot().entries()) {
      Path path = Path.of(entry.path());
      if (entry.type() != FileType.REGULAR || path.equals(SimNode.AGENT_CONFIG_FILE)) {
        continue;
      }
      String content = new String(lab.host.fs().read(path), StandardCharsets.UTF_8);
      if (content.contains(TOKEN)) {
        holding.add(entry.path());
        if ((entry.mode() & 077) != 0 || entry.uid() != 0) {
          exposed.add(entry.path() + " " + Integer.toOctalString(entry.mode()));
        }
      }
    }

    assertThat(holding)
        .as("the files that hold the token")
        .contains(
            lab.paths.bootstrapKubeconfig().toString(),
            lab.paths.appliedConfig().toString());
    assertThat(exposed).isEmpty();
  }
}
