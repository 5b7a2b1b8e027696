/**
 * The node healing itself: the recovery gate that runs at boot before the stack's units
 * ({@link dev.noneops.core.daemon.RecoveryGate}), the agent's daemon that keeps the node as its
 * configuration file says ({@link dev.noneops.core.daemon.NodeDaemon}), and the agent's state
 * both keep where {@code noneops status} shows it ({@link dev.noneops.core.daemon.AgentState}).
 */
package dev.noneops.core.daemon;
