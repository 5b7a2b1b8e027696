package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mode or owner that the node sets after writing a file is on disk when the operation returns:
 * a power loss right after the installer made the binaries executable, or right after a restore
 * put a file's owner back, loses neither.
 */
class ModeAndOwnerSurviveAPowerLossTest {

  @Test
  void aPreparedVersionKeepsItsExecutableBinariesThroughAPowerLossRightAfterThePrepare()
      throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    String v = goal.rootFs().versionName();

    lab.node(goal).prepare();
    lab.host.crash();

    HostFiles files = lab.host.ports().files();
    for (String binary : List.of("kubelet", "kubectl", "kube-proxy", "runc")) {
      assertThat(files.lstat(lab.layout.binDir(v).resolve(binary)).orElseThrow().mode() & 07777)
          .as(binary)
          .isEqualTo(0755);
    }
    Node node = lab.node(goal);
    assertThat(
            new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v).verified())
        .as("the installed version verifies after the power loss")
        .isTrue();
  }

  @Test
  void aRestoredFileKeepsItsOwnerThroughAPowerLossRightAfterTheRestore() throws IOException {
    SimulatedHost host = SimulatedHost.create();
    HostFiles files = host.ports().files();
    Layout layout = Layout.defaultLayout();
    Path config = Path.of("/etc/containerd/config.toml");
    host.fs().seedDirectory(layout.root(), 0755);
    host.fs().seedFile(config, "version = 2\n", 0640);
    host.fs().seedOwner(config, 1234, 5678);
    new SavedConfiguration(files, layout, dev.noneops.core.layout.HostPaths.realHost())
        .save(List.of(config));
    files.writeDurably(config, "version = 3\n", 0644);

    new SavedConfiguration(files, layout, dev.noneops.core.layout.HostPaths.realHost()).restore();
    host.crash();

    FileMeta restored = files.lstat(config).orElseThrow();
    assertThat(files.readString(config)).isEqualTo("version = 2\n");
    assertThat(restored.mode() & 07777).isEqualTo(0640);
    assertThat(List.of(restored.uid(), restored.gid()))
        .as("owner uid, gid")
        .containsExactly(1234, 5678);
  }
}
