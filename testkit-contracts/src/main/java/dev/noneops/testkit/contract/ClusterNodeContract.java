package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.PodOnNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
