package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.SimulatedCrash;
import dev.noneops.testkit.process.SimProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rollback restores the saved unit files byte for byte, and systemd runs what it restored: when
 * the restored bytes differ from what systemd loaded (a unit as an earlier agent rendered it), the
 * rollback reloads systemd before starting the previous stack, so the previous command line runs,
 * never the definition the rollback's own rendering had loaded.
 */
class RestoredUnitsReloadTest {
  private static final String EARLIER_FLAG = "--v=2";
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2_OTHER_DOMAIN =
      SimNode.config("1.31.3", "2.1.1", "green", "{ \"ClusterDomain\": \"other.local\" }");

  private SimNode lab;
  private Path kubeletUnit;

  @BeforeEach
  void aNodeWhoseKubeletUnitAnEarlierAgentRendered() throws IOException {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2_OTHER_DOMAIN);
    kubeletUnit = lab.paths.unit(HostPaths.KUBELET_UNIT);
    String unit = new String(lab.host.ports().files().read(kubeletUnit), StandardCharsets.UTF_8);
    assertThat(unit).contains("--event-qps=0");
    lab.host
        .ports()
        .files()
        .writeDurably(
            kubeletUnit, unit.replace("--event-qps=0", "--event-qps=0 " + EARLIER_FLAG), 0644);
    lab.host.ports().systemd().daemonReload();
    lab.host.ports().systemd().restart(HostPaths.KUBELET_UNIT, Duration.ofSeconds(30));
    assertThat(kubeletArgv()).contains(EARLIER_FLAG).contains("--cluster-domain=cluster.local");
  }

  @Test
  void aFailedUpgradeThatChangedKubeletsCommandLineRollsBackToThePreviousOne() {
    lab.kubeletNeverReady.add(lab.versionOf(V2_OTHER_DOMAIN));

    assertThatThrownBy(() -> lab.node(V2_OTHER_DOMAIN, Optional.of(V1)).upgrade())
        .isInstanceOf(UpgradeFailedException.class);

    assertThat(kubeletArgv())
        .as("kubelet runs the restored unit")
        .contains(EARLIER_FLAG)
        .contains("--cluster-domain=cluster.local");
  }

  @Test
  void recoveryRollingBackStartsThePreviousCommandLine() {
    lab.node(V2_OTHER_DOMAIN, Optional.of(V1)).upgrade();
    assertThat(kubeletArgv()).contains("--cluster-domain=other.local").doesNotContain(EARLIER_FLAG);

    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(kubeletArgv())
        .as("kubelet runs the restored unit")
        .contains(EARLIER_FLAG)
        .contains("--cluster-domain=cluster.local");
  }

  /**
   * The agent dies during the rollback, after it wrote the applied configuration's units but
   * before systemd reloaded them: systemd still holds the target's definitions although every
   * file on disk is already as before the upgrade, so nothing recovery writes or restores
   * changes; it must reload all the same.
   */
  @Test
  void recoveryAfterAnAgentKilledBeforeTheRollbacksReloadStartsThePreviousCommandLine()
      throws IOException {
    restoreTheRenderedKubeletUnit();
    lab.kubeletNeverReady.add(lab.versionOf(V2_OTHER_DOMAIN));
    lab.host
        .faults()
        .add(FaultRule.when(call -> call.is("systemd.daemonReload"))
            .nth(2)
            .failWith(call -> new SimulatedCrash(
                "the agent is killed as the rollback reloads systemd", call.sequence())));

    assertThatThrownBy(() -> lab.node(V2_OTHER_DOMAIN, Optional.of(V1)).upgrade())
        .isInstanceOf(SimulatedCrash.class);
    lab.host.faults().clear();
    lab.host.probes().reset();
    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(kubeletArgv())
        .as("kubelet runs the unit file on disk")
        .contains("--cluster-domain=cluster.local");
  }

  /** Puts back the kubelet unit this agent renders for V1 (the earlier agent's flag gone), loaded and running. */
  private void restoreTheRenderedKubeletUnit() throws IOException {
    String unit = new String(lab.host.ports().files().read(kubeletUnit), StandardCharsets.UTF_8);
    lab.host.ports().files().writeDurably(kubeletUnit, unit.replace(" " + EARLIER_FLAG, ""), 0644);
    lab.host.ports().systemd().daemonReload();
    lab.host.ports().systemd().restart(HostPaths.KUBELET_UNIT, Duration.ofSeconds(30));
    assertThat(kubeletArgv()).doesNotContain(EARLIER_FLAG);
  }

  private List<String> kubeletArgv() {
    return lab.host
        .systemd()
        .mainProcess(HostPaths.KUBELET_UNIT)
        .map(SimProcess::argv)
        .orElseThrow(() -> new AssertionError("kubelet runs no main process"));
  }
}
