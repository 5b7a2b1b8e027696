/**
 * The node healing itself, and following its cluster: the recovery gate that runs at boot before
 * the stack's units ({@link dev.noneops.daemon.RecoveryGate}), the agent's daemon that keeps
 * the node as its configuration file says ({@link dev.noneops.daemon.NodeDaemon}), and the
 * agent's state both keep where {@code noneops status} shows it ({@link
 * dev.noneops.daemon.AgentState}).
 *
 * <p>With a cluster ({@link dev.noneops.daemon.NodeDaemon#followMachine}), the daemon also
 * follows the node's {@code Machine}: it registers it at start, watches it, and on a raised repave
 * counter drains the node (cordon; evictions that honour PodDisruptionBudgets, bounded by {@link
 * dev.noneops.daemon.RepaveOptions}), removes its Node object, upgrades or applies, waits
 * for kubelet to register the node again, uncordons it and reports the outcome in the Machine's
 * status. The cluster's clients come from the composition root ({@link
 * dev.noneops.daemon.NodeDaemon.Cluster}), asked for at every tick: the CLI builds them from
 * kubelet's own credentials — its client kubeconfig ({@code /var/lib/kubelet/kubeconfig}, the
 * certificate kubelet rotates) once the node has joined, the bootstrap kubeconfig (the bootstrap
 * token, which expires) before — and rebuilds them when those files change, and the daemon then
 * watches through the new ones.
 */
package dev.noneops.daemon;
