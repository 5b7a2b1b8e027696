package dev.noneops.acceptance.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.testkit.fixtures.node.BootLog;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimMachineApi;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * The daemon reports the recovery gate's rollback at its start only when the gate ran in this
 * boot: after a clean boot, which systemd's conditions let skip the gate, the agent's state still
 * holds an earlier boot's run, and that is not news for the fleet again.
 */
class BootRecoveryEventTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.0.4", "blue");
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(5));

  private final SimNode lab = new SimNode();
  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimClusterApi cluster = new SimClusterApi(() -> lab.host.clock().now());

  @BeforeEach
  void aNodeWhoseUpgradeAPowerCutInterruptedRightAfterTheFlip() throws IOException {
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    cluster.registerNode(lab.host.ports().facts().read().hostname());
    lab.upgradeCutRightAfterTheFlip(V1, V2);
  }

  @Test
  void theRollbackOfThisBootsGateIsReportedWhenTheDaemonStarts() {
    lab.powerCutAndBoot();

    startTheDaemon();

    assertThat(reasons()).contains("RecoveryRolledBack");
  }

  @Test
  void anEarlierBootsRollbackIsNotReportedAgainAfterACleanBootThatSkippedTheGate() {
    lab.powerCutAndBoot();
    BootLog clean = lab.powerCutAndBoot();

    assertThat(clean.of(HostPaths.RECOVERY_GATE_UNIT))
        .containsExactly(HostPaths.RECOVERY_GATE_UNIT + " condition-failed");
    startTheDaemon();

    assertThat(reasons()).doesNotContain("RecoveryRolledBack");
  }

  private void startTheDaemon() {
    ClusterNode nodes = cluster.client();
    MachineResource machines = api.client();
    lab.daemon(lab.daemonNodesCheckedBy(nodes), NOPLogger.NOP_LOGGER)
        .followMachine(new Clients(machines, nodes), TIMEOUTS, Runnable::run)
        .start();
  }

  private List<String> reasons() {
    return cluster.events().stream().map(ClusterEvent::reason).toList();
  }

  private record Clients(MachineResource machines, ClusterNode nodes)
      implements NodeDaemon.Cluster {}
}
