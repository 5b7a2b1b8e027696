/**
 * The node lifecycle of a none node: {@link dev.noneops.core.node.Node} (prepare, provision,
 * configure, kernel modules, start, restart, stop, upgrade, recover, prune, reset, status) bound
 * by {@link dev.noneops.core.node.Params} to one configuration, with its options, results and
 * typed exceptions, and {@link dev.noneops.core.node.Teardown}, which removes a node without
 * harming what it does not own, with its {@link dev.noneops.core.node.TeardownResult} of what was
 * removed and what was kept and why.
 *
 * <p>Everything else here is package-private: the phases and what they use — the goal state
 * resolved from the configuration and the host's facts, the pure renderers of every file a node
 * writes, the installation and verification of a version directory against its manifest, the
 * upgrade with automatic rollback, crash recovery, commit and pruning (DESIGN.md section 6: the
 * configuration snapshot, the durable journal, the {@code current} link, the node lock), and the
 * ownership record of the shared files the node wrote, by which teardown and restore touch only
 * those and put back the originals, deleting data directories through the mount-safe tree
 * remover.
 */
package dev.noneops.core.node;
