package dev.noneops.kubernetes;

import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.ClusterNodeException.Kind;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.PodOnNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link ClusterNode} port over a Kubernetes API server, through fabric8 kubernetes-client on
 * the JDK's HTTP client, with the calls {@code kubectl drain} makes: cordon and uncordon as JSON
 * merge patches of {@code spec.unschedulable} (nothing else of the Node is written), the node's
 * pods through the field selector {@code spec.nodeName} (and filtered again here, for a server
 * that ignores the selector), evictions through the pod's {@code eviction} subresource ({@code
 * policy/v1}), whose {@code 429} is a PodDisruptionBudget's refusal, and the Node's deletion.
 */
public final class KubernetesClusterNode implements ClusterNode, AutoCloseable {
  private static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  private static final int TOO_MANY_REQUESTS = 429;

  private final KubernetesClient client;
  private final AtomicLong requests = new AtomicLong();

  private KubernetesClusterNode(KubernetesClient client) {
    this.client = client;
  }

  /** A client of the API server {@code connection} names; nothing is asked before the first call. */
  public static KubernetesClusterNode connect(KubernetesConnection connection) {
    return new KubernetesClusterNode(KubernetesClients.of(connection));
  }

  /** The API requests this client has made. */
  public long requests() {
    return requests.get();
  }

  @Override
  public Optional<NodeObject> node(String node) throws IOException {
    requests.incrementAndGet();
    try {
      return Optional.ofNullable(client.nodes().withName(node).get())
          .map(KubernetesClusterNode::toNodeObject);
    } catch (RuntimeException e) {
      throw failure("get node", node, e);
    }
  }

  @Override
  public void cordon(String node) throws IOException {
    schedulable(node, false);
  }

  @Override
  public void uncordon(String node) throws IOException {
    schedulable(node, true);
  }

  @Override
  public List<PodOnNode> podsOn(String node) throws IOException {
    requests.incrementAndGet();
    List<Pod> items;
    try {
      items =
          client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems();
    } catch (RuntimeException e) {
      throw failure("list pods of", node, e);
    }
    List<PodOnNode> out = new ArrayList<>();
    for (Pod pod : items) {
      if (pod.getSpec() != null && node.equals(pod.getSpec().getNodeName())) {
        out.add(toPodOnNode(pod));
      }
    }
    out.sort(Comparator.comparing(PodOnNode::ref));
    return out;
  }

  @Override
  public Eviction evict(PodOnNode pod) throws IOException {
    requests.incrementAndGet();
    try {
      boolean evicted = client
          .pods()
          .inNamespace(pod.namespace())
          .withName(pod.name())
          .evict(new EvictionBuilder()
              .withNewMetadata()
              .withNamespace(pod.namespace())
              .withName(pod.name())
              .endMetadata()
              .build());
      return evicted
          ? new Eviction(Eviction.Outcome.EVICTED, "")
          : new Eviction(
              Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET,
              "Cannot evict pod as it would violate the pod's disruption budget ("
                  + TOO_MANY_REQUESTS + ")");
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return new Eviction(Eviction.Outcome.POD_GONE, String.valueOf(e.getMessage()));
      }
      if (e.getCode() == TOO_MANY_REQUESTS) {
        return new Eviction(
            Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET, String.valueOf(e.getMessage()));
      }
      throw failure("evict pod", pod.ref(), e);
    } catch (RuntimeException e) {
      throw failure("evict pod", pod.ref(), e);
    }
  }

  @Override
  public boolean deleteNode(String node) throws IOException {
    requests.incrementAndGet();
    try {
      return !client.nodes().withName(node).delete().isEmpty();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw failure("delete node", node, e);
    } catch (RuntimeException e) {
      throw failure("delete node", node, e);
    }
  }

  @Override
  public void close() {
    client.close();
  }

  private void schedulable(String node, boolean schedulable) throws ClusterNodeException {
    requests.incrementAndGet();
    try {
      client
          .nodes()
          .withName(node)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              client
                  .getKubernetesSerialization()
                  .asJson(Map.of("spec", Map.of("unschedulable", !schedulable))));
    } catch (RuntimeException e) {
      throw failure(schedulable ? "uncordon" : "cordon", node, e);
    }
  }

  private static NodeObject toNodeObject(Node node) {
    boolean ready = node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .filter(c -> "Ready".equals(c.getType()))
            .map(NodeCondition::getStatus)
            .anyMatch("True"::equals);
    boolean unschedulable =
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    return new NodeObject(node.getMetadata().getName(), ready, unschedulable);
  }

  private static PodOnNode toPodOnNode(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    boolean daemonSet = owners != null
        && owners.stream()
            .anyMatch(
                o -> "DaemonSet".equals(o.getKind()) && Boolean.TRUE.equals(o.getController()));
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    boolean mirror = annotations != null && annotations.containsKey(MIRROR_ANNOTATION);
    String namespace = pod.getMetadata().getNamespace();
    return new PodOnNode(
        namespace == null ? "" : namespace, pod.getMetadata().getName(), daemonSet, mirror);
  }

  private static ClusterNodeException failure(
      String operation, String subject, RuntimeException e) {
    if (e instanceof KubernetesClientException k) {
      return new ClusterNodeException(
          kindOf(k), subject, operation + " " + subject + ": " + k.getMessage(), k);
    }
    return new ClusterNodeException(Kind.OTHER, subject, operation + " " + subject + ": " + e, e);
  }

  private static Kind kindOf(KubernetesClientException e) {
    switch (MachineFailures.kindOf(e)) {
      case NOT_FOUND:
        return Kind.NOT_FOUND;
      case CONFLICT:
        return Kind.CONFLICT;
      case FORBIDDEN:
        return Kind.FORBIDDEN;
      case UNREACHABLE:
        return Kind.UNREACHABLE;
      default:
        return Kind.OTHER;
    }
  }
}
