package dev.noneops.kubernetes;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.ClusterNodeException.Kind;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
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
 * Readiness reads the Node's {@code status} and its Lease in {@code kube-node-lease} (a Lease that
 * cannot be read counts as none); the server's version is {@code /version}'s {@code gitVersion};
 * Events are created as {@code events.k8s.io/v1} with a generated name.
 */
public final class KubernetesClusterNode implements ClusterNode, AutoCloseable {
  private static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  private static final int TOO_MANY_REQUESTS = 429;
  private static final String NODE_LEASES = "kube-node-lease";
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

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
  public Optional<NodeReadiness> readiness(String node) throws IOException {
    requests.incrementAndGet();
    Node found;
    try {
      found = client.nodes().withName(node).get();
    } catch (RuntimeException e) {
      throw failure("get node", node, e);
    }
    if (found == null) {
      return Optional.empty();
    }
    requests.incrementAndGet();
    Optional<Instant> renewed;
    try {
      Lease lease = client.leases().inNamespace(NODE_LEASES).withName(node).get();
      renewed = Optional.ofNullable(lease)
          .map(Lease::getSpec)
          .map(spec -> spec.getRenewTime())
          .map(t -> t.toInstant());
    } catch (KubernetesClientException e) {
      if (kindOf(e) == Kind.UNREACHABLE) {
        throw failure("get the lease of", node, e);
      }
      renewed = Optional.empty();
    } catch (RuntimeException e) {
      throw failure("get the lease of", node, e);
    }
    return Optional.of(toReadiness(found, renewed));
  }

  @Override
  public String serverVersion() throws IOException {
    requests.incrementAndGet();
    try {
      String version = client.getKubernetesVersion().getGitVersion();
      if (version == null || version.isEmpty()) {
        throw new ClusterNodeException(Kind.OTHER, "/version", "/version names no gitVersion");
      }
      return version;
    } catch (RuntimeException e) {
      throw failure("get", "/version", e);
    }
  }

  @Override
  public void recordEvent(ClusterEvent event) throws IOException {
    requests.incrementAndGet();
    Event created = new EventBuilder()
        .withNewMetadata()
        .withNamespace(event.namespace())
        .withGenerateName(event.regarding().name() + ".")
        .endMetadata()
        .withEventTime(new MicroTime(
            MICRO_TIME.format(OffsetDateTime.ofInstant(event.eventTime(), ZoneOffset.UTC))))
        .withRegarding(toReference(event.regarding()))
        .withRelated(event.related().map(KubernetesClusterNode::toReference).orElse(null))
        .withType(event.type().wire())
        .withReason(event.reason())
        .withAction(event.action())
        .withNote(event.note())
        .withReportingController(event.reportingController())
        .withReportingInstance(event.reportingInstance())
        .build();
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(event.namespace())
          .resource(created)
          .create();
    } catch (RuntimeException e) {
      throw failure("create an event about", event.regarding().name(), e);
    }
  }

  private static ObjectReference toReference(ClusterEvent.ObjectRef ref) {
    return new ObjectReferenceBuilder()
        .withApiVersion(ref.apiVersion())
        .withKind(ref.kind())
        .withNamespace(ref.namespace().isEmpty() ? null : ref.namespace())
        .withName(ref.name())
        .build();
  }

  private static NodeReadiness toReadiness(Node node, Optional<Instant> leaseRenewed) {
    String version = "";
    String bootId = "";
    NodeReadiness.Status ready = NodeReadiness.Status.UNKNOWN;
    String reason = "no Ready condition";
    Optional<Instant> heartbeat = Optional.empty();
    if (node.getStatus() != null) {
      if (node.getStatus().getNodeInfo() != null) {
        version = orEmpty(node.getStatus().getNodeInfo().getKubeletVersion());
        bootId = orEmpty(node.getStatus().getNodeInfo().getBootID());
      }
      if (node.getStatus().getConditions() != null) {
        for (NodeCondition c : node.getStatus().getConditions()) {
          if ("Ready".equals(c.getType())) {
            ready = "True".equals(c.getStatus())
                ? NodeReadiness.Status.TRUE
                : "False".equals(c.getStatus())
                    ? NodeReadiness.Status.FALSE
                    : NodeReadiness.Status.UNKNOWN;
            reason = orEmpty(c.getReason())
                + (c.getMessage() == null || c.getMessage().isEmpty() ? "" : ": " + c.getMessage());
            heartbeat = instant(c.getLastHeartbeatTime());
          }
        }
      }
    }
    return new NodeReadiness(
        node.getMetadata().getName(), version, bootId, ready, reason, heartbeat, leaseRenewed);
  }

  private static Optional<Instant> instant(String time) {
    if (time == null || time.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(time).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
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

  private ClusterNodeException failure(String operation, String subject, RuntimeException e) {
    if (e instanceof KubernetesClientException k) {
      return new ClusterNodeException(
          kindOf(k),
          subject,
          operation + " " + subject + ": "
              + MachineFailures.describe(k, client.getMasterUrl().toString()),
          k);
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
