package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.ports.files.FileType;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import dev.noneops.testkit.process.ProcessSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The teardown of a node that {@link Node} bootstrapped (provision, configure, kernel modules,
 * start, the applied configuration recorded) and that then ran a pod: once the caller has also
 * removed its applied configuration, as {@code noneops reset} does, the host is what it was before
 * the bootstrap, except for the agent's configuration directory.
 */
class TeardownOfABootstrappedNodeTest {

  @Test
  void aBootstrappedNodeWithAPodIsTornDownToTheHostItFound() throws Exception {
    SimNode lab = new SimNode();
    FileTreeSnapshot pristine = lab.host.snapshot();
    Node node = lab.bootstrap(SimNode.config("1.31.4", "", "blue"));
    assertThat(node.running()).isTrue();
    Path pod = lab.paths.kubeletDir().resolve("pods/pod-a");
    Path emptyDir = pod.resolve("volumes/kubernetes.io~empty-dir/cache");
    lab.host.fs().seedDirectory(emptyDir, 0777);
    lab.host.fs().mount(emptyDir, MountKind.TMPFS, "tmpfs", "tmpfs", false);
    Path shim = lab.layout.currentBin().resolve("containerd-shim-runc-v2");
    String shimExe = lab.host.fs().realPath(shim).toString();
    lab.host.spawn(ProcessSpec.of(
            shimExe,
            shim.toString(),
            "-namespace",
            "k8s.io",
            "-id",
            "c1",
            "-address",
            lab.paths.containerdRunDir().resolve("containerd.sock").toString())
        .inCgroup("/system.slice/containerd.service"));
    Path pause = lab.paths
        .containerdRunDir()
        .resolve("io.containerd.runtime.v2.task/k8s.io/c1/rootfs/pause");
    lab.host.installExecutable(pause, "#!/bin/sh\n");
    lab.host.spawn(ProcessSpec.of(pause.toString(), "/pause")
        .inCgroup("/kubepods.slice/kubepods-podA.slice/cri-containerd-c1.scope"));
    Teardown teardown = new Teardown(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()));
    assertThat(teardown.present()).isTrue();

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());
    new AppliedConfigStore(lab.host.ports().files(), lab.paths)
        .remove(); // the caller's record, as noneops reset removes it

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(teardown.present()).isFalse();
    // Left on purpose: the agent's configuration directory (the caller's), the unbounded agent's
    // directory above the layout (shared with the other isolation modes) and systemd's own empty
    // multi-user.target.wants, which systemctl disable leaves too.
    List<String> expected = List.of(
        "+ " + lab.paths.agentConfigDir() + " ",
        "+ /etc/unbounded ",
        "+ " + lab.layout.root().getParent() + " ",
        "+ " + lab.paths.systemdDir().resolve("multi-user.target.wants") + " ");
    List<String> left = lab.host.snapshot().diff(pristine).stream()
        .filter(change -> expected.stream().noneMatch(change::startsWith))
        .toList();
    assertThat(left).as("what the bootstrap added and the teardown left").isEmpty();
    assertThat(lab.host.systemd().activeUnits())
        .doesNotContain("kubelet.service", "containerd.service", "localdns.service");
    assertThat(lab.host.processes().cgroupExists("/kubepods.slice")).isFalse();
  }

  /**
   * The CNI plugins' state of the node's pods (host-local's address reservations below {@code
   * /var/lib/cni}) is node data: a teardown that left it would hand a later node on this host
   * addresses that look taken, and CNI's bridge plugin refuses a pod whose name holds one.
   */
  @Test
  void theTeardownRemovesTheCniPluginsStateOfThePods() throws Exception {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config("1.31.4", "", "blue"));
    Path cniState = lab.paths.host("/var/lib/cni");
    Path reservation = cniState.resolve("networks/pods/10.231.7.2");
    lab.host.fs().seedDirectory(cniState.resolve("networks/pods"), 0755);
    lab.host.fs().seedFile(reservation, "k8s.io-web-1\neth0", 0644);
    lab.host.fs().seedDirectory(cniState.resolve("results"), 0700);
    Teardown teardown = new Teardown(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()));

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(lab.host.ports().files().exists(cniState)).as("%s", report).isFalse();
  }

  /**
   * The daemon's run-time directory ({@code /run/noneops}) is the agent's: a reset leaves nothing
   * of it, not even the socket of a daemon that was killed before it could remove it.
   */
  @Test
  void theTeardownRemovesTheDaemonsRunDirectoryAndAStaleSocket() throws Exception {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config("1.31.4", "", "blue"));
    lab.host.fs().seedDirectory(lab.paths.agentRunDir(), 0700);
    lab.host.fs().seedNode(lab.paths.agentSocket(), FileType.SOCKET, 0600, 0, 0);
    Teardown teardown = new Teardown(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()));

    TeardownResult report = teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());

    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(lab.host.ports().files().exists(lab.paths.agentRunDir()))
        .as("%s", report)
        .isFalse();
  }
}
