package dev.noneops.testkit.machine;

import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.PodOnNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
 * <p>One server serves any number of nodes, each through its own {@link #client()}; the other
 * methods are the cluster's side (not counted as a node's requests).
 */
public final class SimClusterApi {
  private final Object lock = new Object();
  private final Map<String, NodeState> nodes = new TreeMap<>();
  private final Map<String, Pod> pods = new TreeMap<>();
  private final Map<String, Budget> budgets = new TreeMap<>();
  private final Map<String, Integer> lingering = new HashMap<>();
  private int lingerListings;
  private boolean unreachable;

  /** A new connection for one node. */
  public SimClusterNode client() {
    return new SimClusterNode(this);
  }

  // ---- the cluster's side ----

  /** Kubelet registered {@code node}: its Node object exists, ready and schedulable. */
  public void registerNode(String node) {
    synchronized (lock) {
      nodes.put(node, new NodeState(true, false));
    }
  }

  /**
   * {@code node}'s kubelet process started: it registers its Node, ready and schedulable, when
   * there is none; an existing one is kept as it is (a restarted kubelet does not uncordon).
   */
  public void kubeletStarted(String node) {
    synchronized (lock) {
      nodes.putIfAbsent(node, new NodeState(true, false));
    }
  }

  /** Sets whether {@code node}'s kubelet reports it Ready. */
  public void setReady(String node, boolean ready) {
    synchronized (lock) {
      NodeState current = existing(node);
      nodes.put(node, new NodeState(ready, current.unschedulable));
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

  // ---- what the clients ask ----

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
      nodes.put(node, new NodeState(current.ready, value));
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

  private record NodeState(boolean ready, boolean unschedulable) {
    NodeObject toObject(String name) {
      return new NodeObject(name, ready, unschedulable);
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
