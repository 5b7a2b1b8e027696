package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.process.ProcessSpec;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Between stopping and starting the stack, an upgrade ends this node's pods as teardown does:
 * its shims and the processes in the pod cgroups go, the pod hierarchy stays for kubelet, and a
 * Docker's shims on the same containerd are not this node's to end.
 */
class UpgradeEndsPodsTest {
  private final SimNode lab = new SimNode();
  private final AgentConfig v1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private final AgentConfig v2 = SimNode.config("1.31.3", "2.0.4", "blue");

  @Test
  void thisNodesShimsAndPodProcessesEndAndADockersShimOnTheSameContainerdLives() throws Exception {
    lab.bootstrap(v1);
    lab.publish(v2);
    String address = lab.paths.containerdRunDir().resolve("containerd.sock").toString();
    Path shim = lab.layout.currentBin().resolve("containerd-shim-runc-v2");
    String shimExe = lab.host.fs().realPath(shim).toString();
    long ourShim = lab.host
        .spawn(ProcessSpec.of(
                shimExe, shim.toString(), "-namespace", "k8s.io", "-id", "c1", "-address", address)
            .inCgroup("/system.slice/containerd.service"))
        .pid();
    long dockersShim = lab.host
        .spawn(ProcessSpec.of(
                shimExe, shim.toString(), "-namespace", "moby", "-id", "d1", "-address", address)
            .inCgroup("/system.slice/containerd.service"))
        .pid();
    Path pause = lab.paths
        .containerdRunDir()
        .resolve("io.containerd.runtime.v2.task/k8s.io/c1/rootfs/pause");
    lab.host.installExecutable(pause, "#!/bin/sh\n");
    long podProcess = lab.host
        .spawn(ProcessSpec.of(pause.toString(), "/pause")
            .inCgroup("/kubepods.slice/kubepods-podA.slice/cri-containerd-c1.scope"))
        .pid();
    Node node = lab.node(v2, Optional.of(v1));

    node.upgrade();

    assertThat(lab.host.processes().process(ourShim)).as("this node's shim").isEmpty();
    assertThat(lab.host.processes().process(podProcess)).as("the pod's process").isEmpty();
    assertThat(lab.host.processes().process(dockersShim))
        .as("a Docker's shim on the same containerd")
        .isPresent();
    assertThat(lab.host.processes().cgroupExists("/kubepods.slice"))
        .as("the pod hierarchy, for kubelet's next start")
        .isTrue();
    assertThat(lab.stackActive()).isTrue();
  }
}
