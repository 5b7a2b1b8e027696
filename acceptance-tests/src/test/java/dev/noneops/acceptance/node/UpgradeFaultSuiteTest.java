package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.core.node.internal.state.RollbackHistory;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.FaultRule;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every failure an upgrade can meet ends in one of two ways: the previous version runs again with
 * every shared file byte-identical to before, or the upgrade is refused with a clear error before
 * anything the running node uses changed.
 */
class UpgradeFaultSuiteTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");

  private SimNode lab;
  private String v1;
  private String v2;
  private Map<String, String> before;

  @BeforeEach
  void runningNodeOnV1() {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.driftOwnedFiles();
    lab.publish(V2);
    v1 = lab.versionOf(V1);
    v2 = lab.versionOf(V2);
    before = lab.sharedFiles();
  }

  private Node upgrading() {
    return lab.node(V2, Optional.of(V1));
  }

  private UpgradeFailedException upgradeFails() {
    UpgradeFailedException e =
        catchThrowableOfType(UpgradeFailedException.class, () -> upgrading().upgrade());
    assertThat(e).as("the upgrade must fail with UpgradeFailedException").isNotNull();
    return e;
  }

  /** The previous version runs with every shared file as before, and no upgrade state is left. */
  private void previousRunsAsBefore() {
    assertThat(lab.activeVersionRaw()).contains(v1);
    assertThat(lab.sharedFiles()).isEqualTo(before);
    assertThat(lab.stackActive()).as("the previous stack runs").isTrue();
    assertThat(lab.exists(lab.layout.journal())).as("journal left").isFalse();
    assertThat(lab.exists(lab.layout.confsnap())).as("saved configuration left").isFalse();
    assertThat(lab.host.tempFiles(java.nio.file.Path.of("/"))).isEmpty();
  }

  @Test
  void aKubeletThatNeverGetsReadyIsRolledBackAndNotRetriedWithoutForce() throws Exception {
    lab.kubeletNeverReady.add(v2);

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(failure.getMessage())
        .contains("kubelet.service did not become ready")
        .contains("rolled back");
    assertThat(failure.getCause()).isNotNull();
    previousRunsAsBefore();
    assertThat(new RollbackHistory(lab.host.ports().files(), lab.layout).entries())
        .singleElement()
        .satisfies(r -> assertThat(r.targetVersion()).isEqualTo(v2));
    var resets = lab.host.journal().calls("systemd.resetFailed");
    var kubeletStarts =
        lab.host.journal().calls(c -> SimNode.startsUnit(c, HostPaths.KUBELET_UNIT));
    assertThat(resets).as("reset-failed before restarting the previous version").isNotEmpty();
    assertThat(resets.get(resets.size() - 1).sequence())
        .isLessThan(kubeletStarts.get(kubeletStarts.size() - 1).sequence());

    assertThatThrownBy(() -> upgrading().upgrade())
        .isInstanceOf(UpgradeRefusedException.class)
        .hasMessageContaining("was rolled back at")
        .hasMessageContaining("force")
        .satisfies(e -> assertThat(((UpgradeRefusedException) e).reason())
            .isEqualTo(UpgradeRefusedException.Reason.ROLLED_BACK_BEFORE));
    previousRunsAsBefore();

    lab.kubeletNeverReady.clear();
    assertThat(upgrading().upgrade(true).targetVersion()).isEqualTo(v2);
    assertThat(lab.activeVersionRaw()).contains(v2);
  }

  @Test
  void containerdThatFailsToStartIsRolledBack() {
    lab.failStartWhileActive(HostPaths.CONTAINERD_UNIT, v2);

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(failure.getMessage()).contains("containerd.service");
    previousRunsAsBefore();
  }

  @Test
  void localDnsThatFailsToStartIsRolledBack() {
    lab.failStartWhileActive(HostPaths.LOCALDNS_UNIT, v2);

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(failure.getMessage()).contains("localdns.service");
    previousRunsAsBefore();
  }

  @Test
  void noSpaceWhileInstallingChangesNothing() {
    lab.host
        .faults()
        .add(FaultRule.when(call -> call.is("files.writeDurably")
                && call.args().get(0).startsWith(lab.layout.root() + "/")
                && !call.args().get(0).startsWith(lab.layout.confsnap().toString()))
            .fail(Errno.ENOSPC));

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.NOTHING_CHANGED);
    assertThat(HostIOException.hasErrno(failure, Errno.ENOSPC)).isTrue();
    assertThat(failure.getMessage()).contains("ENOSPC").contains("nothing was changed");
    previousRunsAsBefore();
  }

  @Test
  void noSpaceWhileSavingTheConfigurationChangesNothing() {
    lab.host
        .faults()
        .add(FaultRule.when(call -> call.is("files.writeDurably")
                && call.args().get(0).startsWith(lab.layout.confsnap() + "/"))
            .nth(3)
            .fail(Errno.ENOSPC));

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.NOTHING_CHANGED);
    assertThat(HostIOException.hasErrno(failure, Errno.ENOSPC)).isTrue();
    previousRunsAsBefore();
  }

  @Test
  void anIoErrorWritingTheJournalChangesNothing() {
    lab.host
        .faults()
        .add(FaultRule.when(
                call -> call.is("files.writeDurably", lab.layout.journal().toString()))
            .atStep("fsync-file")
            .fail(Errno.EIO));

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.NOTHING_CHANGED);
    assertThat(HostIOException.hasErrno(failure, Errno.EIO)).isTrue();
    assertThat(failure.getMessage()).contains(lab.layout.journal().toString());
    previousRunsAsBefore();
  }

  @Test
  void aChecksumMismatchIsAClearErrorBeforeAnythingChanged() {
    URI kubelet = lab.goal(V2).rootFs().artifacts().stream()
        .filter(a -> a.name().equals("kubelet"))
        .findFirst()
        .orElseThrow()
        .url();
    lab.host
        .artifacts()
        .publish(
            URI.create(kubelet + ".sha256"),
            (SimArtifactRepository.sha256Hex("something else".getBytes(StandardCharsets.UTF_8))
                    + "  kubelet\n")
                .getBytes(StandardCharsets.UTF_8));

    UpgradeFailedException failure = upgradeFails();

    assertThat(failure.outcome()).isEqualTo(RollbackOutcome.NOTHING_CHANGED);
    assertThat(failure.getMessage()).contains("kubelet").contains("sha256");
    assertThat(lab.exists(lab.layout.manifest(v2)))
        .as("no verified manifest for the bad version")
        .isFalse();
    previousRunsAsBefore();
  }

  @Test
  void aSecondProcessHoldingTheLockGetsABusyErrorAndNothingChanges() throws Exception {
    FileTreeSnapshot tree = lab.host.snapshot();
    NodeLock otherProcess = new NodeLock(lab.host.ports().files(), lab.layout);
    try (NodeLock.Hold held = otherProcess.acquire("upgrade")) {
      assertThatThrownBy(() -> upgrading().upgrade())
          .isInstanceOf(NodeBusyException.class)
          .hasMessageContaining("node busy")
          .hasMessageContaining(lab.layout.lock().toString())
          .hasMessageContaining("nothing was changed");
      assertThatThrownBy(() -> lab.node(V1).recoverUpgrade(V1))
          .isInstanceOf(NodeBusyException.class);
      assertThatThrownBy(() -> lab.node(V1).pruneVersions()).isInstanceOf(NodeBusyException.class);
    }
    assertThat(lab.host.snapshot().diff(tree)).isEmpty();
    previousRunsAsBefore();
  }
}
