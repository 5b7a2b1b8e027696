/**
 * The node's {@code Node} object and its pods in the cluster ({@link
 * dev.noneops.ports.cluster.ClusterNode}): cordon, the pods bound to the node, evictions through
 * the Eviction API that honour PodDisruptionBudgets, the Node object's removal before a repave and
 * whether kubelet registered it again.
 */
package dev.noneops.ports.cluster;
