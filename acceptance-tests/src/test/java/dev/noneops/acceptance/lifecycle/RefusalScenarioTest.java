package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.ForeignStackException;
import dev.noneops.core.node.InstallException;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Bootstrap refuses hosts it must not touch and installs nothing it cannot verify. */
class RefusalScenarioTest {

  private static ForeignStackException refusedProvision(SimNode lab, FileTreeSnapshot before) {
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    Node node = lab.node(goal);
    ForeignStackException refused =
        catchThrowableOfType(ForeignStackException.class, node::provision);
    assertThat(lab.host.snapshot()).as("the host tree is byte-identical").isEqualTo(before);
    assertThat(refused.failedAt()).contains("provision › check-host");
    return refused;
  }

  @Test
  void aForeignKubeletBinaryIsRefusedAndNothingChanges() {
    SimNode lab = new SimNode();
    lab.host.installExecutable(
        Path.of("/usr/local/bin/kubelet"), "#!/bin/sh\n# kubeadm's kubelet\n");
    FileTreeSnapshot before = lab.host.snapshot();

    ForeignStackException refused = refusedProvision(lab, before);

    assertThat(refused.findings())
        .containsExactly("binary /usr/local/bin/kubelet is not owned by /opt/unbounded/node");
    assertThat(lab.host.artifacts().bytesServed()).isZero();
  }

  @Test
  void aForeignContainerdFromADistroPackageIsRefusedActiveOrNot() throws IOException {
    SimNode lab = new SimNode();
    lab.host.installExecutable(Path.of("/usr/bin/containerd"), "#!/bin/sh\n# debian containerd\n");
    lab.host
        .fs()
        .seedFile(
            Path.of("/usr/lib/systemd/system/containerd.service"),
            "[Unit]\nDescription=containerd\n[Service]\nExecStart=/usr/bin/containerd\n[Install]\nWantedBy=multi-user.target\n",
            0644);
    lab.host.ports().systemd().start("containerd.service", Duration.ofSeconds(10));
    FileTreeSnapshot before = lab.host.snapshot();

    ForeignStackException refused = refusedProvision(lab, before);

    assertThat(refused.findings())
        .containsExactly(
            "containerd.service is active from /usr/lib/systemd/system/containerd.service",
            "binary /usr/bin/containerd is not owned by /opt/unbounded/node");
    assertThat(refused).hasMessageContaining("refusing to install over it");
    assertThat(lab.host.systemd().peek("containerd.service").isActive()).isTrue();
  }

  @Test
  void aUnitFileWithoutTheMarkerIsRefused() throws IOException {
    SimNode lab = new SimNode();
    lab.host
        .fs()
        .seedFile(
            lab.paths.unit("kubelet.service"), "[Service]\nExecStart=/usr/bin/kubelet\n", 0644);
    FileTreeSnapshot before = lab.host.snapshot();

    ForeignStackException refused = refusedProvision(lab, before);

    assertThat(refused.findings())
        .contains(
            "unit file /etc/systemd/system/kubelet.service is not managed by this node (no marker line)");
  }

  @Test
  void aChecksumMismatchFailsClearlyLeavesNoVersionAndActivatesNothing() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    URI kubelet = goal.rootFs().artifacts().stream()
        .filter(a -> a.name().equals("kubelet"))
        .findFirst()
        .orElseThrow()
        .url();
    lab.host
        .artifacts()
        .publish(kubelet, "#!/bin/sh\n# tampered\n".getBytes(StandardCharsets.UTF_8));
    Node node = lab.node(goal);

    InstallException install = catchThrowableOfType(InstallException.class, node::provision);

    assertThat(install.reason()).isEqualTo(InstallException.Reason.CHECKSUM_MISMATCH);
    assertThat(install.failedAt()).contains("provision › prepare › download › download-kubelet");
    assertThat(install).hasMessageContaining(kubelet.toString()).hasMessageContaining("expected");
    assertThat(lab.host.snapshot(Path.of("/opt/unbounded/node")).paths())
        .containsExactly(
            "/opt/unbounded/node",
            "/opt/unbounded/node/.created-parents",
            "/opt/unbounded/node/.lock");
    assertThat(node.version()).isEmpty();
    assertThat(lab.host.snapshot().paths())
        .noneMatch(p -> p.endsWith(".service") && p.startsWith("/etc/systemd/system"));
    assertThat(lab.host.systemd().activeUnits()).isEmpty();
  }

  @Test
  void aMutatingOperationWhileAnotherProcessHoldsTheNodeLockIsRefusedAsBusyAndCanBeCaughtAsSuch()
      throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    FileTreeSnapshot before = lab.host.snapshot();

    try (var otherProcess = lab.host.ports().files().tryLock(lab.layout.lock()).orElseThrow()) {
      for (ThrowingCallable operation : List.<ThrowingCallable>of(
          () -> lab.node(goal).configure(),
          () -> lab.node(goal).restart(),
          () -> lab.node(goal).start(true, new ConfigureResult(true, true, true)),
          () -> lab.node(goal).pruneVersions(),
          () -> lab.node(goal).loadKernelModules(),
          () -> lab.node(goal).stop())) {
        NodeBusyException busy = catchThrowableOfType(NodeBusyException.class, operation);

        assertThat(busy).hasMessageContaining(lab.layout.lock().toString());
      }
    }
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }
}
