package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link ClusterNode} contract: what a drain relies on. Cordon and uncordon, the pods bound
 * to a node with DaemonSet and mirror pods told apart, evictions that honour PodDisruptionBudgets
 * (a budget allowing no disruption is a refusal, not an error; an accepted eviction uses one of
 * the budget's allowed disruptions), and the Node object's removal. A subclass supplies the port
 * connected to a cluster of its own for each test, and that cluster as another client acts on it
 * (kubelet registering a node, controllers binding pods, an operator putting budgets).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ClusterNodeContract {
  /** How long an evicted pod may take to be gone. */
  protected static final Duration GONE_WAIT = Duration.ofSeconds(10);

  private static final Map<String, String> WEB = Map.of("app", "web");

  /** The port under test, connected to this test's cluster. */
  protected abstract ClusterNode resource() throws Exception;

  /** Kubelet registers {@code node}, ready or not; a Node object that is deleted stays deleted. */
  protected abstract void registerNodeAsKubelet(String node, boolean ready) throws Exception;

  /**
   * A pod bound to {@code node} with {@code labels}: owned by a DaemonSet or a mirror pod (the
   * annotation {@code kubernetes.io/config.mirror}) as {@code pod} says, else owned by a ReplicaSet.
   */
  protected abstract void bindPodAsScheduler(String node, PodOnNode pod, Map<String, String> labels)
      throws Exception;

  /** A PodDisruptionBudget in {@code namespace} whose status allows {@code allowed} disruptions. */
  protected abstract void putBudgetAsOperator(
      String namespace, String name, Map<String, String> selector, int allowed) throws Exception;

  /**
   * Kubelet {@code version} starts on the boot {@code bootId}: it registers {@code node} (or
   * updates it), posts its version, boot id and its Ready condition ({@code True} or {@code
   * False}) with a heartbeat now, and renews the node's Lease now.
   */
  protected abstract void startKubelet(String node, String version, String bootId, boolean ready)
      throws Exception;

  /** The API server's {@code /version} says {@code gitVersion}. */
  protected abstract void serverVersionIs(String gitVersion) throws Exception;

  /**
   * The Events ({@code events.k8s.io/v1}) in {@code namespace} as another client reads them, each
   * as {@code type reason regarding-kind/regarding-name related-kind/related-name: note} ({@code -}
   * for no related object).
   */
  protected abstract List<String> eventsAsOperator(String namespace) throws Exception;

  @Test
  void theReadinessOfANodeThatDoesNotExistIsAnEmptyAnswer() throws Exception {
    assertThat(resource().readiness("worker-1")).isEmpty();
  }

  @Test
  void aStartedKubeletsVersionBootIdReadyConditionAndHeartbeatAreRead() throws Exception {
    Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
    startKubelet("worker-1", "v1.31.3", "0b1c2d3e-boot", true);
    startKubelet("worker-2", "v1.31.2", "4f5a6b7c-boot", false);

    NodeReadiness ready = resource().readiness("worker-1").orElseThrow();
    assertThat(ready.name()).isEqualTo("worker-1");
    assertThat(ready.kubeletVersion()).isEqualTo("v1.31.3");
    assertThat(ready.bootId()).isEqualTo("0b1c2d3e-boot");
    assertThat(ready.ready()).isEqualTo(NodeReadiness.Status.TRUE);
    assertThat(ready.lastHeartbeat()).hasValueSatisfying(t -> assertThat(t).isAfter(before));
    assertThat(ready.leaseRenewed())
        .as("kubelet renews its Lease")
        .hasValueSatisfying(t -> assertThat(t).isAfter(before));

    NodeReadiness notReady = resource().readiness("worker-2").orElseThrow();
    assertThat(notReady.ready()).isEqualTo(NodeReadiness.Status.FALSE);
    assertThat(notReady.kubeletVersion()).isEqualTo("v1.31.2");
    assertThat(resource().node("worker-2")).contains(new NodeObject("worker-2", false, false));
  }

  @Test
  void theServersVersionIsWhatVersionSays() throws Exception {
    serverVersionIs("v1.30.7");
    assertThat(resource().serverVersion()).isEqualTo("v1.30.7");
  }

  @Test
  void anEventIsCreatedRegardingItsObjectWithItsReasonAndNote() throws Exception {
    resource()
        .recordEvent(new ClusterEvent(
            "noneops-system",
            new ClusterEvent.ObjectRef("noneops.dev/v1alpha1", "Machine", "noneops-system", "m-1"),
            Optional.of(ClusterEvent.ObjectRef.node("worker-1")),
            ClusterEvent.Type.WARNING,
            "UpgradeRolledBack",
            "Upgrade",
            "rolled back from 1.31.2 to 1.31.3",
            Instant.parse("2026-12-05T00:00:00Z"),
            "noneops.dev/agent",
            "worker-1"));

    assertThat(eventsAsOperator("noneops-system"))
        .containsExactly("Warning UpgradeRolledBack Machine/m-1 Node/worker-1:"
            + " rolled back from 1.31.2 to 1.31.3");
  }

  @Test
  void aNodeThatDoesNotExistIsAnEmptyAnswer() throws Exception {
    assertThat(resource().node("worker-1")).isEmpty();
  }

  @Test
  void aRegisteredNodeIsReadWithItsReadiness() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    registerNodeAsKubelet("worker-2", false);

    assertThat(resource().node("worker-1")).contains(new NodeObject("worker-1", true, false));
    assertThat(resource().node("worker-2")).contains(new NodeObject("worker-2", false, false));
  }

  @Test
  void cordonMarksTheNodeUnschedulableAndUncordonUndoesIt() throws Exception {
    registerNodeAsKubelet("worker-1", true);

    resource().cordon("worker-1");
    assertThat(resource().node("worker-1").orElseThrow().unschedulable()).isTrue();
    resource().cordon("worker-1");
    assertThat(resource().node("worker-1").orElseThrow().unschedulable())
        .as("cordoning twice is cordoned")
        .isTrue();

    resource().uncordon("worker-1");
    assertThat(resource().node("worker-1").orElseThrow().unschedulable()).isFalse();
  }

  @Test
  void cordoningANodeThatDoesNotExistIsNotFound() throws Exception {
    ClusterNode nodes = resource();
    assertThatThrownBy(() -> nodes.cordon("worker-9"))
        .isInstanceOfSatisfying(
            ClusterNodeException.class,
            e -> assertThat(e.kind()).isEqualTo(ClusterNodeException.Kind.NOT_FOUND));
  }

  @Test
  void thePodsOfTheNodeAreListedWithDaemonSetAndMirrorPodsToldApart() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    registerNodeAsKubelet("worker-2", true);
    bindPodAsScheduler("worker-1", new PodOnNode("shop", "web-1", false, false), WEB);
    bindPodAsScheduler("worker-1", new PodOnNode("kube-system", "proxy-x", true, false), Map.of());
    bindPodAsScheduler(
        "worker-1", new PodOnNode("kube-system", "etcd-worker-1", false, true), Map.of());
    bindPodAsScheduler("worker-2", new PodOnNode("shop", "web-2", false, false), WEB);

    assertThat(resource().podsOn("worker-1"))
        .containsExactlyInAnyOrder(
            new PodOnNode("shop", "web-1", false, false),
            new PodOnNode("kube-system", "proxy-x", true, false),
            new PodOnNode("kube-system", "etcd-worker-1", false, true));
    assertThat(resource().podsOn("worker-3")).isEmpty();
  }

  @Test
  void aPodNoBudgetSelectsIsEvictedAndGoes() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    PodOnNode web = new PodOnNode("shop", "web-1", false, false);
    bindPodAsScheduler("worker-1", web, WEB);
    putBudgetAsOperator("shop", "other", Map.of("app", "db"), 0);

    assertThat(resource().evict(web).outcome()).isEqualTo(Eviction.Outcome.EVICTED);

    awaitGone("worker-1", web);
  }

  @Test
  void aBudgetThatAllowsNoDisruptionRefusesTheEvictionAndThePodStays() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    PodOnNode web = new PodOnNode("shop", "web-1", false, false);
    bindPodAsScheduler("worker-1", web, WEB);
    putBudgetAsOperator("shop", "web", WEB, 0);

    Eviction answer = resource().evict(web);

    assertThat(answer.outcome()).isEqualTo(Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET);
    assertThat(resource().podsOn("worker-1")).contains(web);
  }

  @Test
  void aBudgetThatAllowsOneDisruptionLetsOneEvictionThroughAndRefusesTheNext() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    PodOnNode first = new PodOnNode("shop", "web-1", false, false);
    PodOnNode second = new PodOnNode("shop", "web-2", false, false);
    bindPodAsScheduler("worker-1", first, WEB);
    bindPodAsScheduler("worker-1", second, WEB);
    putBudgetAsOperator("shop", "web", WEB, 1);

    assertThat(resource().evict(first).outcome()).isEqualTo(Eviction.Outcome.EVICTED);
    assertThat(resource().evict(second).outcome())
        .isEqualTo(Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET);
  }

  @Test
  void evictingAPodThatIsGoneIsAnAnswer() throws Exception {
    assertThat(resource().evict(new PodOnNode("shop", "web-1", false, false)).outcome())
        .isEqualTo(Eviction.Outcome.POD_GONE);
  }

  @Test
  void deletingTheNodeObjectRemovesItAndDeletingItAgainFindsNone() throws Exception {
    registerNodeAsKubelet("worker-1", true);

    assertThat(resource().deleteNode("worker-1")).isTrue();

    assertThat(resource().node("worker-1")).isEmpty();
    assertThat(resource().deleteNode("worker-1")).isFalse();
  }

  @Test
  void aDeletedNodeStaysDeletedUntilKubeletRegistersItAgain() throws Exception {
    registerNodeAsKubelet("worker-1", true);
    resource().deleteNode("worker-1");

    for (int read = 1; read <= 3; read++) {
      assertThat(resource().node("worker-1"))
          .as("read %d after the delete: nothing registers a Node but its kubelet", read)
          .isEmpty();
    }
    registerNodeAsKubelet("worker-1", true);
    assertThat(resource().node("worker-1")).contains(new NodeObject("worker-1", true, false));
  }

  private void awaitGone(String node, PodOnNode pod) throws Exception {
    long deadline = System.nanoTime() + GONE_WAIT.toNanos();
    List<PodOnNode> left = resource().podsOn(node);
    while (left.contains(pod) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);
      left = resource().podsOn(node);
    }
    assertThat(left).doesNotContain(pod);
  }
}
