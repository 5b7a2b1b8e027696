/**
 * The node lifecycle of a none node: {@link dev.noneops.core.node.Node} (prepare, provision,
 * configure, kernel modules, start, restart, stop, upgrade, recover, prune, reset, status) bound
 * by {@link dev.noneops.core.node.Params} to one configuration, with its options, results and
 * typed exceptions. Everything else here is package-private: its phases and what they use —
 * the goal state resolved from the configuration and the host's facts, the pure renderers of
 * every file a node writes, the installation and verification of a version directory against
 * its manifest, and the upgrade with automatic rollback, crash recovery, commit and pruning
 * (DESIGN.md section 6: the configuration snapshot, the durable journal, the {@code current}
 * link).
 */
package dev.noneops.core.node;
