package dev.noneops.testkit.machine;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A cluster's API server for Node objects, pods and PodDisruptionBudgets, in memory: what a drain
 * meets. Pods are bound to nodes; a DaemonSet's pods and mirror pods are marked as such; an
 * eviction is refused ({@code 429}) while a budget selecting the pod allows no disruption, and an
 * accepted one uses up one of the budget's allowed disruptions (as the API server's eviction
 * does), and the pod goes away (at once, or after {@link #evictedPodsLingerFor} listings, as a pod
 * in its grace period). Kubelet registers its Node once per start of its process, as a real one
 * does: {@link #kubeletStarted} (a fixture calls it when the node's simulated {@code
 * kubelet.service} starts) creates the Node when there is none and leaves an existing one as it
 * is, cordon and all; a Node deleted while kubelet runs stays deleted until kubelet starts again.
 * {@link #registerNode} is a Node a kubelet registered before the test looked.
 *
 * <p>A kubelet that starts ({@link #kubeletStarted(String, String, String)}) posts its version and
 * boot id and its {@code Ready} condition with a heartbeat at that moment (of the clock given at
 * construction), {@code True} unless it was told it never becomes Ready ({@link
 * #kubeletNeverReady}: it answers healthz but reports {@code Ready=False}, as a kubelet whose
 * network plugin never comes up does); while it runs it renews its Lease every {@link
 * #LEASE_RENEW_INTERVAL}, and it stops renewing when it stops ({@link #kubeletStopped}). Nothing
 * else changes a Node: a Ready condition is only what a kubelet posted. The API server's version
 * ({@code /version}) is {@link #DEFAULT_SERVER_VERSION} unless set; Events created through a
 * client are kept in order ({@link #events()}).
 *
 * <p>One server serves any number of nodes, each through its own {@link #client()}; the other
 * methods are the cluster's side (not counted as a node's requests).
 */
public final class SimClusterApi {
  private final Object lock = new Object();
  private final Map<String, NodeState> nodes = new TreeMap<>();
  private final Map<String, Pod> pods = new TreeMap<>();
  private final Map<String, Budget> budgets = new TreeMap<>();
  private final Map<String, Integer> lingering = new HashMap<>();
  private final Set<String> neverReady = new HashSet<>();
  private final List<ClusterEvent> events = new ArrayList<>();
  private final Supplier<Instant> clock;
  private String serverVersion = DEFAULT_SERVER_VERSION;
  private int lingerListings;
  private boolean unreachable;

  /** How often a running kubelet renews its node's Lease (kubelet's default). */
  public static final Duration LEASE_RENEW_INTERVAL = Duration.ofSeconds(10);

  /** The API server's version unless {@link #serverVersion(String)} sets another. */
  public static final String DEFAULT_SERVER_VERSION = "v1.31.4";

  /** A cluster whose clock is the wall clock. */
  public SimClusterApi() {
    this(Instant::now);
  }

  /** A cluster whose objects are stamped by {@code clock} (a simulated host's, say). */
  public SimClusterApi(Supplier<Instant> clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A new connection for one node. */
  public SimClusterNode client() {
    return new SimClusterNode(this);
  }

  // ---- the cluster's side ----

  /**
   * Kubelet registered {@code node} before the test looked: its Node object exists, ready (its
   * heartbeat now) and schedulable, with no version, boot id or Lease the test cares about.
   */
  public void registerNode(String node) {
    synchronized (lock) {
      nodes.put(node, NodeState.registered(NodeReadiness.Status.TRUE, "KubeletReady", now()));
    }
  }

  /**
   * {@link #kubeletStarted(String, String, String)} of a kubelet whose version and boot id the
   * test does not look at (it posts {@code ""} for both).
   */
  public void kubeletStarted(String node) {
    kubeletStarted(node, "", "");
  }

  /**
   * {@code node}'s kubelet process started, at version {@code kubeletVersion} ({@code v1.31.2}) on
   * the boot {@code bootId}: it registers its Node, schedulable, when there is none (an existing
   * one keeps its cordon: a restarted kubelet does not uncordon), posts its version and boot id
   * and its Ready condition ({@code False} when told {@link #kubeletNeverReady}) with a heartbeat
   * now, and renews its Lease from now on.
   */
  public void kubeletStarted(String node, String kubeletVersion, String bootId) {
    synchronized (lock) {
      Instant now = now();
      NodeState current = nodes.get(node);
      boolean unschedulable = current != null && current.unschedulable;
      boolean ready = !neverReady.contains(node);
      nodes.put(
          node,
          new NodeState(
              ready ? NodeReadiness.Status.TRUE : NodeReadiness.Status.FALSE,
              ready ? "KubeletReady" : "KubeletNotReady: container runtime network not ready",
              Optional.of(now),
              unschedulable,
              kubeletVersion,
              bootId,
              Optional.of(now),
              Optional.empty()));
    }
  }

  /** {@code node}'s kubelet process stopped: it renews its Lease no more. */
  public void kubeletStopped(String node) {
    synchronized (lock) {
      NodeState s = nodes.get(node);
      if (s != null && s.leaseSince.isPresent()) {
        nodes.put(node, s.leaseStopped(lastRenewal(s, now())));
      }
    }
  }

  /**
   * Whether {@code node}'s kubelet, from its next start on, answers healthz but never reports its
   * Node Ready ({@code Ready=False}, its Lease renewed all the same).
   */
  public void kubeletNeverReady(String node, boolean value) {
    synchronized (lock) {
      if (value) {
        neverReady.add(node);
      } else {
        neverReady.remove(node);
      }
    }
  }

  /** Sets whether {@code node}'s kubelet reports it Ready, posted now. */
  public void setReady(String node, boolean ready) {
    synchronized (lock) {
      NodeState current = existing(node);
      nodes.put(
          node,
          current.withReady(
              ready ? NodeReadiness.Status.TRUE : NodeReadiness.Status.FALSE,
              ready ? "KubeletReady" : "KubeletNotReady",
              now()));
    }
  }

  /** The API server's {@code /version} answers {@code gitVersion} from now on. */
  public void serverVersion(String gitVersion) {
    synchronized (lock) {
      serverVersion = Objects.requireNonNull(gitVersion, "gitVersion");
    }
  }

  /** The Events created so far, oldest first. */
  public List<ClusterEvent> events() {
    synchronized (lock) {
      return List.copyOf(events);
    }
  }

  /** An evicted pod stays listed for {@code listings} listings of its node's pods, then is gone. */
  public void evictedPodsLingerFor(int listings) {
    synchronized (lock) {
      lingerListings = listings;
    }
  }

  /** Every request of every client fails as UNREACHABLE until called again with false. */
  public void unreachable(boolean value) {
    synchronized (lock) {
      unreachable = value;
    }
  }

  /** Binds a pod to {@code node}, its labels given. */
  public void bindPod(String node, PodOnNode pod, Map<String, String> labels) {
    synchronized (lock) {
      pods.put(pod.ref(), new Pod(node, pod, Map.copyOf(labels)));
    }
  }

  /** Binds a plain pod (a ReplicaSet's, say) with {@code labels} to {@code node}. */
  public void bindPod(String node, String namespace, String name, Map<String, String> labels) {
    bindPod(node, new PodOnNode(namespace, name, false, false), labels);
  }

  /** A PodDisruptionBudget in {@code namespace} selecting {@code selector}, with its allowance now. */
  public void putBudget(
      String namespace, String name, Map<String, String> selector, int disruptionsAllowed) {
    synchronized (lock) {
      budgets.put(
          namespace + "/" + name,
          new Budget(namespace, name, Map.copyOf(selector), disruptionsAllowed));
    }
  }

  /** Changes a budget's allowance (its controller saw a replacement become ready). */
  public void setDisruptionsAllowed(String namespace, String name, int disruptionsAllowed) {
    synchronized (lock) {
      Budget b = budgets.get(namespace + "/" + name);
      if (b == null) {
        throw new IllegalStateException("no PodDisruptionBudget " + namespace + "/" + name);
      }
      budgets.put(b.ref(), new Budget(b.namespace, b.name, b.selector, disruptionsAllowed));
    }
  }

  /** The Node object as stored, without a request of any node. */
  public Optional<NodeObject> nodeObject(String node) {
    synchronized (lock) {
      NodeState s = nodes.get(node);
      return s == null ? Optional.empty() : Optional.of(s.toObject(node));
    }
  }

  /** The pods bound to {@code node}, by {@code namespace/name}, as stored. */
  public List<String> podsBoundTo(String node) {
    synchronized (lock) {
      List<String> out = new ArrayList<>();
      pods.forEach((ref, pod) -> {
        if (pod.node.equals(node)) {
          out.add(ref);
        }
      });
      return out;
    }
  }

  /** What kubelet reported about {@code node}, as stored now, without a request of any node. */
  public Optional<NodeReadiness> nodeReadiness(String node) {
    synchronized (lock) {
      NodeState s = nodes.get(node);
      if (s == null) {
        return Optional.empty();
      }
      return Optional.of(new NodeReadiness(
          node,
          s.kubeletVersion,
          s.bootId,
          s.ready,
          s.readyReason,
          s.heartbeat,
          lastRenewal(s, now())));
    }
  }

  // ---- what the clients ask ----

  Optional<NodeReadiness> readReadiness(String node) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(node);
      return nodeReadiness(node);
    }
  }

  String readServerVersion() throws ClusterNodeException {
    synchronized (lock) {
      requireReachable("/version");
      return serverVersion;
    }
  }

  void createEvent(ClusterEvent event) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(event.regarding().name());
      events.add(event);
    }
  }

  Optional<NodeObject> readNode(String node) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(node);
      return nodeObject(node);
    }
  }

  void setUnschedulable(String node, boolean value) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(node);
      NodeState current = nodes.get(node);
      if (current == null) {
        throw new ClusterNodeException(
            ClusterNodeException.Kind.NOT_FOUND, node, "nodes \"" + node + "\" not found");
      }
      nodes.put(node, current.withUnschedulable(value));
    }
  }

  List<PodOnNode> listPods(String node) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(node);
      List<PodOnNode> out = new ArrayList<>();
      for (Pod pod : List.copyOf(pods.values())) {
        if (!pod.node.equals(node)) {
          continue;
        }
        out.add(pod.pod);
        Integer left = lingering.get(pod.pod.ref());
        if (left != null) {
          if (left <= 1) {
            lingering.remove(pod.pod.ref());
            pods.remove(pod.pod.ref());
          } else {
            lingering.put(pod.pod.ref(), left - 1);
          }
        }
      }
      return out;
    }
  }

  Eviction evict(PodOnNode target) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(target.ref());
      Pod pod = pods.get(target.ref());
      if (pod == null) {
        return new Eviction(Eviction.Outcome.POD_GONE, "pods \"" + target.name() + "\" not found");
      }
      if (lingering.containsKey(target.ref())) {
        return new Eviction(Eviction.Outcome.EVICTED, "");
      }
      List<Budget> selecting = new ArrayList<>();
      for (Budget b : budgets.values()) {
        if (b.namespace.equals(target.namespace()) && b.selects(pod.labels)) {
          selecting.add(b);
          if (b.disruptionsAllowed <= 0) {
            return new Eviction(
                Eviction.Outcome.REFUSED_BY_DISRUPTION_BUDGET,
                "Cannot evict pod as it would violate the pod's disruption budget. The disruption"
                    + " budget " + b.name + " needs more healthy pods");
          }
        }
      }
      for (Budget b : selecting) {
        budgets.put(b.ref(), new Budget(b.namespace, b.name, b.selector, b.disruptionsAllowed - 1));
      }
      if (lingerListings > 0) {
        lingering.put(target.ref(), lingerListings);
      } else {
        pods.remove(target.ref());
      }
      return new Eviction(Eviction.Outcome.EVICTED, "");
    }
  }

  boolean removeNode(String node) throws ClusterNodeException {
    synchronized (lock) {
      requireReachable(node);
      return nodes.remove(node) != null;
    }
  }

  private void requireReachable(String subject) throws ClusterNodeException {
    if (unreachable) {
      throw new ClusterNodeException(
          ClusterNodeException.Kind.UNREACHABLE, subject, "the API server cannot be reached");
    }
  }

  private NodeState existing(String node) {
    NodeState s = nodes.get(node);
    if (s == null) {
      throw new IllegalStateException("no Node " + node);
    }
    return s;
  }

  private Instant now() {
    return clock.get();
  }

  /**
   * The Lease's last renewal at {@code now}: every {@link #LEASE_RENEW_INTERVAL} since kubelet
   * started while it runs, the last one before it stopped after.
   */
  private static Optional<Instant> lastRenewal(NodeState s, Instant now) {
    if (s.leaseSince.isEmpty()) {
      return s.leaseLast;
    }
    Instant since = s.leaseSince.get();
    if (now.isBefore(since)) {
      return Optional.of(since);
    }
    long ticks = Duration.between(since, now).toNanos() / LEASE_RENEW_INTERVAL.toNanos();
    return Optional.of(since.plus(LEASE_RENEW_INTERVAL.multipliedBy(ticks)));
  }

  /**
   * A Node as stored: its Ready condition (status, reason, heartbeat), its cordon, what kubelet
   * posted of itself, and its Lease (renewed from {@code leaseSince} while kubelet runs, else last
   * renewed at {@code leaseLast}).
   */
  private record NodeState(
      NodeReadiness.Status ready,
      String readyReason,
      Optional<Instant> heartbeat,
      boolean unschedulable,
      String kubeletVersion,
      String bootId,
      Optional<Instant> leaseSince,
      Optional<Instant> leaseLast) {

    static NodeState registered(NodeReadiness.Status ready, String reason, Instant at) {
      return new NodeState(
          ready, reason, Optional.of(at), false, "", "", Optional.empty(), Optional.empty());
    }

    NodeState withUnschedulable(boolean value) {
      return new NodeState(
          ready, readyReason, heartbeat, value, kubeletVersion, bootId, leaseSince, leaseLast);
    }

    NodeState withReady(NodeReadiness.Status status, String reason, Instant at) {
      return new NodeState(
          status,
          reason,
          Optional.of(at),
          unschedulable,
          kubeletVersion,
          bootId,
          leaseSince,
          leaseLast);
    }

    NodeState leaseStopped(Optional<Instant> last) {
      return new NodeState(
          ready,
          readyReason,
          heartbeat,
          unschedulable,
          kubeletVersion,
          bootId,
          Optional.empty(),
          last);
    }

    NodeObject toObject(String name) {
      return new NodeObject(name, ready == NodeReadiness.Status.TRUE, unschedulable);
    }
  }

  private record Pod(String node, PodOnNode pod, Map<String, String> labels) {}

  private record Budget(
      String namespace, String name, Map<String, String> selector, int disruptionsAllowed) {
    String ref() {
      return namespace + "/" + name;
    }

    boolean selects(Map<String, String> labels) {
      return labels.entrySet().containsAll(selector.entrySet());
    }
  }
}
