package dev.noneops.ports.cluster;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The node's {@code Node} object and the pods bound to it, in the cluster the node belongs to:
 * what a drain needs ({@code kubectl drain}'s calls) and what tells that kubelet registered the
 * node again after a repave. The node's daemon drains through it before it repaves the node.
 *
 * <p>Failures follow the ports' contract (package {@code dev.noneops.ports}): a call the API server
 * refuses or cannot be asked is a checked {@link ClusterNodeException} whose {@link
 * ClusterNodeException.Kind} callers branch on. What a drain expects to meet is an answer, not an
 * error: a Node object that does not exist ({@link Optional#empty()} from {@link #node}, nothing
 * to do for {@link #deleteNode}), a pod already gone ({@link Eviction.Outcome#POD_GONE}), and an
 * eviction a PodDisruptionBudget refuses ({@link Eviction.Outcome#REFUSED_BY_DISRUPTION_BUDGET},
 * the API server's {@code 429 Too Many Requests}).
 */
public interface ClusterNode {

  /** The Node object {@code node}, empty when there is none. */
  Optional<NodeObject> node(String node) throws IOException;

  /**
   * Marks the Node unschedulable ({@code spec.unschedulable: true}): no new pod is placed on it.
   *
   * @throws ClusterNodeException {@link ClusterNodeException.Kind#NOT_FOUND} when there is no such
   *     Node
   */
  void cordon(String node) throws IOException;

  /**
   * Marks the Node schedulable again.
   *
   * @throws ClusterNodeException {@link ClusterNodeException.Kind#NOT_FOUND} when there is no such
   *     Node
   */
  void uncordon(String node) throws IOException;

  /** The pods bound to {@code node} ({@code spec.nodeName}), in every namespace, by namespace and name. */
  List<PodOnNode> podsOn(String node) throws IOException;

  /**
   * Asks the API server to evict {@code pod} through the Eviction API ({@code policy/v1}), which
   * honours the PodDisruptionBudgets selecting it: a budget that allows no disruption now refuses
   * the eviction, which may succeed later.
   */
  Eviction evict(PodOnNode pod) throws IOException;

  /**
   * Deletes the Node object {@code node}, as a repave does before the node registers again.
   *
   * @return whether there was one to delete
   */
  boolean deleteNode(String node) throws IOException;

  /**
   * What kubelet reported about {@code node}: its version and boot id, its {@code Ready}
   * condition with the heartbeat, and its Lease's last renewal (a Node without a Lease has none);
   * empty when there is no such Node. What a readiness gate with the cluster's view reads.
   */
  Optional<NodeReadiness> readiness(String node) throws IOException;

  /**
   * The API server's version as its {@code /version} says ({@code gitVersion}, such as {@code
   * v1.31.2}): what the version skew policy compares kubelet's with.
   */
  String serverVersion() throws IOException;

  /** Creates {@code event} ({@code events.k8s.io/v1}) in its namespace. */
  void recordEvent(ClusterEvent event) throws IOException;
}
