package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Teardown decides what is this node's from evidence that this node installed itself, never
 * from a lock file, an empty layout or a containerd socket path alone.
 */
class TeardownEvidenceTest {
  private final Layout layout = Layout.defaultLayout();
  private final HostPaths paths = HostPaths.realHost();

  @Test
  void aLayoutHoldingOnlyALockFileAndAnEmptyStagingDirectoryIsNoNode() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedFile(layout.lock(), "", 0644);
    host.fs().seedDirectory(layout.staging(), 0755);
    host.fs()
        .seedFile(
            paths.kubeletDir().resolve("pods/p1/volumes/data/db"),
            "someone else's pod data\n",
            0600);
    Teardown teardown = teardown(host);

    assertThat(teardown.present()).isFalse();
    TeardownResult leftovers = TeardownResult.of(teardown.steps().removeBootstrapLeftovers());

    assertThat(host.fs().lstat(layout.root()))
        .as("the leftovers of a bootstrap that installed nothing")
        .isEmpty();
    assertThat(host.fs().lstat(layout.root().getParent()))
        .as("a parent that was there before the node")
        .isPresent();
    assertThat(leftovers.complete()).isTrue();
    assertThat(host.fs().lstat(paths.kubeletDir().resolve("pods/p1/volumes/data/db")))
        .isPresent();
  }

  @Test
  void theLeftoversOfABootstrapStillInstallingAreNotTouched() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedFile(layout.lock(), "", 0644);
    host.fs().seedFile(layout.staging().resolve("kubelet.part"), "half a download", 0644);
    Teardown teardown = teardown(host);

    try (var installing = host.ports().files().tryLock(layout.lock()).orElseThrow()) {
      assertThatThrownBy(teardown.steps()::removeBootstrapLeftovers)
          .isInstanceOf(NodeBusyException.class);
    }

    assertThat(host.fs().lstat(layout.staging().resolve("kubelet.part"))).isPresent();
  }

  @Test
  void anEmptyLayoutIsNoNode() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedDirectory(layout.root(), 0755);

    assertThat(teardown(host).present()).isFalse();
  }

  @Test
  void eachPieceOfEvidenceAloneMakesANode() throws Exception {
    for (String evidence :
        new String[] {"marker unit", "ownership record", "current link", "teardown note"}) {
      SimulatedHost host = SimulatedHost.create();
      host.fs().seedDirectory(layout.root(), 0755);
      switch (evidence) {
        case "marker unit" ->
          host.fs()
              .seedFile(
                  paths.unit("kubelet.service"), HostPaths.UNIT_MARKER + "\n[Service]\n", 0644);
        case "ownership record" ->
          host.fs().seedFile(paths.ownershipRecord(), "{\"format\":1,\"entries\":[]}", 0600);
        case "current link" -> host.fs().seedSymlink(layout.current(), "1.31.4-abc");
        default -> host.fs().seedFile(layout.teardownMarker(), "", 0600);
      }

      assertThat(teardown(host).present()).as(evidence).isTrue();
    }
  }

  @Test
  void filesBesideTheVersionsInTheLayoutAreReadAsFilesNotAsVersions() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedFile(layout.journal(), "{}", 0600);
    host.fs().seedFile(layout.root().resolve("notes.txt"), "an operator's note\n", 0644);

    assertThat(teardown(host).present()).as("the upgrade journal is evidence").isTrue();
  }

  @Test
  void aStrayFileInAnOtherwiseEmptyLayoutIsNoNode() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedFile(layout.root().resolve("notes.txt"), "an operator's note\n", 0644);

    assertThat(teardown(host).present()).isFalse();
  }

  @Test
  void anInterruptedTeardownIsStillPresentUntilItFinishes() throws Exception {
    SimNode node = SimNode.running();
    Path busy = node.podDir("pod-a").resolve("volumes/kubernetes.io~empty-dir/cache");
    node.fs().setBusy(busy, true);
    Teardown teardown = node.teardown();

    TeardownResult first = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(first.complete()).isFalse();
    assertThat(teardown.present())
        .as("units and records are gone, the teardown note says a node is still here")
        .isTrue();
    node.fs().setBusy(busy, false);
    assertThat(teardown.destroy().complete()).isTrue();
    assertThat(teardown.present()).isFalse();
    assertThat(node.fs().lstat(node.layout.root())).isEmpty();
  }

  @Test
  void shimsOnTheDefaultSocketServedByAContainerdNotFromTheLayoutAreNotOurs() throws Exception {
    SimNode node = SimNode.running();
    node.host.installExecutable(Path.of("/usr/bin/containerd"), "#!/bin/sh\n# debian containerd\n");
    node.host.installExecutable(Path.of("/usr/bin/containerd-shim-runc-v2"), "#!/bin/sh\n");
    SimProcess foreignContainerd =
        node.host.spawn(ProcessSpec.of("/usr/bin/containerd", "/usr/bin/containerd")
            .inCgroup("/system.slice/containerd.service"));
    SimProcess foreignShim = node.host.spawn(ProcessSpec.of(
            "/usr/bin/containerd-shim-runc-v2",
            "/usr/bin/containerd-shim-runc-v2",
            "-namespace",
            "k8s.io",
            "-id",
            "f1",
            "-address",
            node.containerdAddress().toString())
        .inCgroup(SimNode.CONTAINERD_CGROUP));
    Teardown teardown = node.teardown();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(node.host.processes().process(foreignShim.pid()))
        .as("the foreign containerd's shim")
        .isPresent();
    assertThat(node.host.processes().process(foreignContainerd.pid())).isPresent();
    assertThat(report.kept(KeepReason.FOREIGN_SHIM)).anySatisfy(k -> {
      assertThat(k.subject()).startsWith("pid " + foreignShim.pid() + " ");
      assertThat(k.detail())
          .contains("/usr/bin/containerd")
          .contains("does not run from this node's layout");
    });
    for (SimProcess ours : node.shims) {
      assertThat(node.host.processes().process(ours.pid()))
          .as("this node's shims run from its layout")
          .isEmpty();
    }
  }

  private Teardown teardown(SimulatedHost host) {
    return new Teardown(
        host.ports(),
        layout,
        paths,
        dev.noneops.core.node.TeardownOptions.defaults(),
        LoggerFactory.getLogger(TeardownEvidenceTest.class));
  }
}
