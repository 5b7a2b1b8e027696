package dev.noneops.acceptance.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimMachineApi;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * A repave the Machine asks for, run by the node's daemon with its cluster's credentials, on the
 * simulated host and cluster: the target passes the readiness gate with the cluster's view, or
 * rolls back when its kubelet answers healthz but its Node never becomes Ready; either way the
 * outcome is an Event regarding the Machine.
 */
class RepaveThroughTheClusterGateTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.0.4", "blue");
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(5));

  private final SimNode lab = new SimNode();
  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimClusterApi cluster = new SimClusterApi(() -> lab.host.clock().now());
  private NodeDaemon daemon;
  private String node;
  private boolean targetNeverReady;

  @BeforeEach
  void aNodeFollowingItsMachine() throws IOException {
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    node = lab.host.ports().facts().read().hostname();
    String bootId = lab.host.ports().facts().bootId();
    Map<String, String> kubeletOf =
        Map.of(lab.versionOf(V1), "v1.31.2", lab.versionOf(V2), "v1.31.3");
    cluster.registerNode(node);
    lab.onKubeletStart(() -> {
      String version = lab.activeVersionRaw().map(kubeletOf::get).orElse("");
      cluster.kubeletNeverReady(node, targetNeverReady && version.equals("v1.31.3"));
      cluster.kubeletStarted(node, version, bootId);
    });
    ClusterNode nodes = cluster.client();
    MachineResource machines = api.client();
    daemon = lab.daemon(lab.daemonNodesCheckedBy(nodes), NOPLogger.NOP_LOGGER)
        .followMachine(new Clients(machines, nodes), TIMEOUTS, Runnable::run);
    daemon.start();
  }

  private record Clients(MachineResource machines, ClusterNode nodes)
      implements NodeDaemon.Cluster {}

  private Machine repave() {
    String name = V1.machineName();
    api.updateSpec(
        name,
        s -> s.withKubernetes(s.kubernetes().withVersion("1.31.3"))
            .withOperations(s.operations().withRepaveCounter(1)));
    for (int t = 0; t < 20; t++) {
      daemon.tick();
      Machine m = api.machine(name).orElseThrow();
      if (m.status().operations().repaveCounter() >= 1) {
        return m;
      }
    }
    throw new AssertionError("the repave was never acknowledged");
  }

  private Optional<ClusterEvent> event(String reason) {
    return cluster.events().stream().filter(e -> e.reason().equals(reason)).findFirst();
  }

  @Test
  void aTargetTheClusterSeesReadyIsRepavedAndSaysSo() {
    Machine m = repave();

    assertThat(m.status().phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(event("Repaved")).hasValueSatisfying(e -> {
      assertThat(e.type()).isEqualTo(ClusterEvent.Type.NORMAL);
      assertThat(e.regarding().kind()).isEqualTo("Machine");
      assertThat(e.regarding().name()).isEqualTo(V1.machineName());
      assertThat(e.related()).hasValueSatisfying(r -> assertThat(r.name()).isEqualTo(node));
    });
  }

  @Test
  void aTargetWhoseKubeletAnswersHealthzButNeverBecomesReadyRollsBackNamingItAndSaysSo() {
    targetNeverReady = true;

    Machine m = repave();

    assertThat(m.status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(m.status().condition(MachineCondition.REPAVED))
        .hasValueSatisfying(c -> assertThat(c.message())
            .contains("the cluster did not see the node Ready")
            .contains("Ready condition is False"));
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(event("RepaveRolledBack")).hasValueSatisfying(e -> {
      assertThat(e.type()).isEqualTo(ClusterEvent.Type.WARNING);
      assertThat(e.note()).contains("Ready condition is False");
    });
    assertThat(event("Repaved")).isEmpty();
  }
}
