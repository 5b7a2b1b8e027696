/**
 * Upgrade with automatic rollback, crash recovery, commit and pruning (DESIGN.md section 6).
 *
 * <p>An upgrade saves every shared file the node owns ({@link dev.noneops.core.upgrade.Confsnap}),
 * records what it is doing in a durable journal ({@link dev.noneops.core.upgrade.UpgradeJournal}),
 * switches the {@code current} link and either succeeds (the journal and snapshot stay until
 * commit) or rolls back. The node's recovery finishes whatever a
 * crash interrupted, deciding from the journal, the applied configuration's digest and the link.
 * {@link dev.noneops.core.upgrade.VersionPruner} removes old versions unless something still
 * executes from them, and {@link dev.noneops.core.upgrade.NodeLock} serialises every mutating
 * operation across processes.
 */
package dev.noneops.core.upgrade;
