package dev.noneops.acceptance.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.acceptance.machine.ClusterNodeDelegate;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.daemon.internal.ClusterCallException;
import dev.noneops.daemon.internal.MachineRegistration;
import dev.noneops.daemon.internal.RepaveReconciler;
import dev.noneops.daemon.internal.RepaveReconciler.Outcome;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.ports.machine.AgentSpec;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimClusterNode;
import dev.noneops.testkit.machine.SimMachineApi;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node repaved in place when its Machine's repave counter is raised: drained as {@code kubectl
 * drain} does (DaemonSet and mirror pods left, PodDisruptionBudgets honoured within a bound), its
 * Node object removed, a new version upgraded to and committed or labels alone applied, the Node
 * registered again and uncordoned; a target that rolls back is reported Failed and not retried, an
 * invalid spec or a blocked drain changes nothing on the host.
 */
class RepaveFromTheMachineTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");

  private static final String NODE = "sim-node";
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofSeconds(5));

  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimClusterApi cluster = new SimClusterApi();
  private SimNode lab;
  private RepaveReconciler reconciler;
  private boolean kubeletRegisters = true;

  @BeforeEach
  void aRegisteredNodeOnV1() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    new MachineRegistration(api.client()).register(V1);
    cluster.registerNode(NODE);
    lab.onKubeletStart(() -> {
      if (kubeletRegisters) {
        cluster.kubeletStarted(NODE);
      }
    });
    reconciler = reconcilerWith(cluster.client());
  }

  private RepaveReconciler reconcilerWith(ClusterNode nodes) {
    return new RepaveReconciler(
        lab.host.ports(),
        lab.paths,
        (config, previous) -> lab.node(config.orElseThrow(), previous),
        api.client(),
        V1.machineName(),
        "amd64",
        nodes,
        NODE,
        TIMEOUTS);
  }

  @Test
  void theNodeIsDrainedOfAllButDaemonSetAndMirrorPodsRemovedRegisteredAgainAndUncordoned() {
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.bindPod(NODE, new PodOnNode("kube-system", "proxy-x", true, false), Map.of());
    cluster.bindPod(NODE, new PodOnNode("kube-system", "static-sim-node", false, true), Map.of());
    cluster.evictedPodsLingerFor(2);
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(cluster.podsBoundTo(NODE))
        .containsExactly("kube-system/proxy-x", "kube-system/static-sim-node");
    assertThat(cluster.nodeObject(NODE))
        .as("registered again by the new kubelet, and schedulable")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
  }

  @Test
  void aDrainABudgetBlocksPastItsBoundIsReportedFailedNamingThePodAndTheHostIsUntouched() {
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.bindPod(NODE, "shop", "db-1", Map.of("app", "db"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);
    Map<String, String> before = lab.sharedFiles();
    askRepave(1, k -> k.withVersion("1.31.5"));
    Instant started = lab.host.clock().now();

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.DRAIN_BLOCKED);

    assertThat(Duration.between(started, lab.host.clock().now()))
        .as("the evictions were retried until the bound")
        .isGreaterThanOrEqualTo(TIMEOUTS.drain());
    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(withoutAgentState(before));
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(cluster.nodeObject(NODE))
        .as("uncordoned, and not deleted")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(cluster.podsBoundTo(NODE)).containsExactly("shop/web-1");
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.reason()).isEqualTo("DrainBlocked");
      assertThat(c.message()).contains("shop/web-1", "disruption budget").doesNotContain("db-1");
    });
  }

  @Test
  void aBlockedDrainLeavesTheCordonTheOperatorHadPutInPlace() throws IOException {
    cluster.client().cordon(NODE);
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.DRAIN_BLOCKED);

    assertThat(cluster.nodeObject(NODE))
        .as("cordoned by the operator before the repave: the repave undoes only its own cordon")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isTrue());
    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("cordoned before the repave");
  }

  @Test
  void aNodeTheOperatorHadCordonedIsCordonedAgainOnceItRegistersAgain() throws IOException {
    cluster.client().cordon(NODE);
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(cluster.nodeObject(NODE))
        .as("the Node kubelet registered again carries the operator's cordon")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isTrue());
  }

  @Test
  void aBudgetThatAllowsADisruptionBeforeTheBoundLetsTheRepaveGoOn() {
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);
    SimClusterNode client = cluster.client();
    ClusterNode freedAtTheThirdRefusal = new ClusterNodeDelegate(client) {
      private int refusals;

      @Override
      public Eviction evict(PodOnNode pod) throws IOException {
        Eviction answer = super.evict(pod);
        if (answer.outcome() == Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET && ++refusals == 3) {
          cluster.setDisruptionsAllowed("shop", "web", 1);
        }
        return answer;
      }
    };
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconcilerWith(freedAtTheThirdRefusal).reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(cluster.podsBoundTo(NODE)).isEmpty();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
  }

  @Test
  void aDrainTheApiServerRefusesMidWayLeavesTheNodeUncordonedAndTheRepaveToTryAgain() {
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    ClusterNode refusesEvictions = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public Eviction evict(PodOnNode pod) throws IOException {
        throw new ClusterNodeException(
            ClusterNodeException.Kind.FORBIDDEN, pod.ref(), "pods/eviction is forbidden");
      }
    };
    Map<String, String> before = withoutAgentState(lab.sharedFiles());
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThatThrownBy(() -> reconcilerWith(refusesEvictions).reconcile())
        .isInstanceOf(ClusterCallException.class)
        .hasMessageContaining("forbidden");

    assertThat(cluster.nodeObject(NODE))
        .as("not left cordoned")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(before);
    assertThat(status().operations().repaveCounter())
        .as("not acknowledged: the next pass tries again")
        .isZero();
  }

  @Test
  void aNodeKubeletDoesNotRegisterAgainIsReportedFailedAfterItsBound() {
    kubeletRegisters = false;
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.NOT_REGISTERED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().reason())
        .isEqualTo("NotRegistered");
  }

  /**
   * The spec's agent image is laid over the applied configuration as its version, labels and
   * taints are (a host-native node runs no image, but the applied configuration says what the
   * Machine asked), and an image left empty keeps the applied one.
   */
  @Test
  void theSpecsAgentImageIsLaidOverTheAppliedConfiguration() {
    api.updateSpec(
        V1.machineName(),
        s -> s.withAgent(new AgentSpec("registry.example/agent:2", s.agent().downloads()))
            .withKubernetes(s.kubernetes().withVersion("1.31.5"))
            .withOperations(s.operations().withRepaveCounter(1)));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.applied())
        .hasValueSatisfying(c -> assertThat(c.ociImage()).isEqualTo("registry.example/agent:2"));
  }

  @Test
  void aRaisedCounterWithANewVersionUpgradesCommitsAndReportsJoining() {
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.applied()).contains(V2);
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(MachineCondition.Status.TRUE);
      assertThat(c.reason()).isEqualTo("Succeeded");
    });
    assertThat(reconciler.reconcile())
        .as("the counter is acknowledged")
        .isEqualTo(Outcome.NOTHING_TO_DO);
  }

  @Test
  void newLabelsOnTheSameVersionAreAppliedWithoutAnUpgrade() {
    askRepave(
        1,
        k -> new KubernetesSpec(
            "",
            Map.of("example.com/pool", "green"),
            k.registerWithTaints(),
            k.bootstrapTokenRef()));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.applied()).contains(V1_GREEN);
  }

  /**
   * New labels change kubelet's configuration while LocalDNS happens to be stopped: kubelet must
   * still run the new labels and start again, or the Node the repave deleted never comes back.
   */
  @Test
  void newLabelsWithLocalDnsStoppedRestartKubeletSoTheNodeRegistersAgainWithThem() {
    lab.host.systemd().stop("localdns.service", Duration.ofSeconds(5));
    askRepave(
        1,
        k -> new KubernetesSpec(
            "",
            Map.of("example.com/pool", "green"),
            k.registerWithTaints(),
            k.bootstrapTokenRef()));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(cluster.nodeObject(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(lab.applied()).contains(V1_GREEN);
  }

  /**
   * A kubelet registers its Node once per start of its process: a repave that deletes the Node and
   * changes nothing of kubelet's restarts kubelet itself, or the Node never comes back.
   */
  @Test
  void aRepaveThatChangesNothingOfKubeletsRestartsItSoTheNodeRegistersAgain() {
    askRepave(1, k -> k);

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(cluster.nodeObject(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
  }

  /**
   * The Node is deleted before the new version is installed; when the install fails the old
   * kubelet runs on untouched, and a kubelet registers only when it starts: the repave restarts it
   * so that the node comes back into the cluster, reported Failed with the cause.
   */
  @Test
  void aTargetThatCannotBeInstalledLeavesTheNodeRegisteredAgain() {
    askRepave(1, k -> k.withVersion("1.31.6"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.ROLLED_BACK);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(cluster.nodeObject(NODE))
        .as("registered again by the restarted kubelet, and schedulable")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("1.31.6");
  }

  @Test
  void aTargetThatRollsBackIsReportedFailedAndNotRetried() {
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.ROLLED_BACK);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(MachineCondition.Status.FALSE);
      assertThat(c.reason()).isEqualTo("RolledBack");
      assertThat(c.message()).isNotEmpty();
    });
    long callsBefore = lab.host.journal().calls().size();
    assertThat(reconciler.reconcile()).isEqualTo(Outcome.NOTHING_TO_DO);
    assertThat(lab.host.journal().calls().size())
        .as("no retry until the counter is raised again")
        .isEqualTo(callsBefore);
  }

  @Test
  void anInvalidSpecIsReportedWithItsViolationsAndChangesNothingOnTheHost() {
    Map<String, String> before = lab.sharedFiles();
    askRepave(1, k -> k.withVersion("not-a-version"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.INVALID_SPEC);

    assertThat(lab.sharedFiles()).isEqualTo(before);
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("not-a-version");
  }

  private void askRepave(long counter, UnaryOperator<KubernetesSpec> change) {
    api.updateSpec(
        V1.machineName(),
        s -> s.withKubernetes(change.apply(s.kubernetes()))
            .withOperations(s.operations().withRepaveCounter(counter)));
  }

  private Map<String, String> withoutAgentState(Map<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.remove(lab.paths.agentState().toString());
    // the repave under way remembers whether the node was cordoned before it began
    out.remove(lab.paths.agentState().resolveSibling("repave-cordon").toString());
    return out;
  }

  private MachineStatus status() {
    return api.machine(V1.machineName()).orElseThrow().status();
  }
}
