package dev.noneops.acceptance.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.kubernetes.KubernetesClusterNode;
import dev.noneops.kubernetes.KubernetesMachineResource;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The daemon following its Machine through the real Kubernetes adapters, against fabric8's mock
 * API server in CRUD mode serving the Machine CRD with the Eviction API added (see {@link
 * MockCluster}): registration, a repave to a new version, a drain a PodDisruptionBudget blocks
 * until its bound. The host is simulated; kubelet's registration of the Node object is stood in
 * for: when the daemon looks for a Node object that is gone while the host's kubelet runs, the
 * stand-in registers it, as the started kubelet would.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FollowingTheMachineOnTheMockServerTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final String MACHINE = V1.machineName();
  private static final String NODE = "sim-node";
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofSeconds(5));

  private MockCluster cluster;
  private KubernetesMachineResource machines;
  private KubernetesClusterNode nodes;
  private SimNode lab;
  private NodeDaemon daemon;

  @BeforeEach
  void aNodeOnV1InAClusterOnTheMockServer() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    cluster = new MockCluster();
    cluster.registerNode(NODE);
    machines = KubernetesMachineResource.connect(cluster.connection());
    nodes = KubernetesClusterNode.connect(cluster.connection());
    lab.onKubeletStart(() -> cluster.kubeletStarted(NODE));
    daemon = lab.daemon(new RecordingLog())
        .followMachine(new Cluster(machines, nodes), TIMEOUTS, Runnable::run);
  }

  @AfterEach
  void stop() {
    machines.close();
    nodes.close();
    cluster.close();
  }

  private record Cluster(MachineResource machines, ClusterNode nodes)
      implements NodeDaemon.Cluster {}

  @Test
  void atStartTheDaemonRegistersItsMachine() throws IOException {
    daemon.start();

    Machine registered = machines.get(MACHINE).orElseThrow();
    assertThat(registered.spec().kubernetes().bootstrapTokenRef()).startsWith("bootstrap-token-");
    assertThat(registered.spec().kubernetes().nodeLabels())
        .isEqualTo(V1.kubelet().labels());
  }

  @Test
  void aRaisedCounterRepavesTheNodeThroughTheApiServer() throws Exception {
    daemon.start();
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));

    askRepave("1.31.5");
    Machine done = tickUntil(m -> m.status().operations().repaveCounter() == 1);

    assertThat(done.status().phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(done.status().condition(MachineCondition.REPAVED).orElseThrow().reason())
        .isEqualTo("Succeeded");
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(nodes.podsOn(NODE)).isEmpty();
    assertThat(nodes.node(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
  }

  @Test
  void aDrainABudgetBlocksIsReportedFailedAfterItsBoundAndTheNodeIsUncordoned() throws Exception {
    daemon.start();
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);

    askRepave("1.31.5");
    Machine done = tickUntil(m -> m.status().operations().repaveCounter() == 1);

    assertThat(done.status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(done.status().condition(MachineCondition.REPAVED).orElseThrow()).satisfies(c -> {
      assertThat(c.reason()).isEqualTo("DrainBlocked");
      assertThat(c.message()).contains("shop/web-1");
    });
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(nodes.podsOn(NODE)).hasSize(1);
    assertThat(nodes.node(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
  }

  private void askRepave(String version) {
    cluster
        .admin
        .genericKubernetesResources("unbounded-cloud.io/v1alpha3", "Machine")
        .withName(MACHINE)
        .edit(r -> {
          @SuppressWarnings("unchecked")
          Map<String, Object> spec =
              (Map<String, Object>) r.getAdditionalProperties().get("spec");
          @SuppressWarnings("unchecked")
          Map<String, Object> kubernetes = (Map<String, Object>) spec.get("kubernetes");
          kubernetes.put("version", version);
          spec.put("operations", Map.of("repaveCounter", 1, "rebootCounter", 0));
          return r;
        });
  }

  /** Ticks the daemon (its watch delivers on threads of its own) until the Machine is so. */
  private Machine tickUntil(Predicate<Machine> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      daemon.tick();
      Machine now = machines.get(MACHINE).orElseThrow();
      if (done.test(now)) {
        return now;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the Machine did not get there: " + now.status());
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }
}
