package dev.noneops.core.node;

import dev.noneops.core.node.internal.state.UpgradeRecord;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Recovery found the upgrade journal of an upgrade that is not interrupted but in progress: its
 * owner, another process, still runs (it may release the node between the upgrade and its
 * commit, while it persists the applied configuration), or the journal names no owner and only a
 * start or {@code noneops recover} may take it for interrupted. Nothing was changed; the upgrade
 * is its owner's to commit.
 */
public class UpgradeInProgressException extends NodeBusyException {
  private static final long serialVersionUID = 1L;

  private final transient Optional<UpgradeRecord.Owner> owner;

  public UpgradeInProgressException(Path lockFile, String operation, UpgradeRecord record) {
    super(lockFile, operation, message(operation, record));
    this.owner = record.owner();
  }

  /** The process the journal names; empty when it names none (a journal of a previous format). */
  public Optional<UpgradeRecord.Owner> owner() {
    return owner;
  }

  private static String message(String operation, UpgradeRecord record) {
    String upgrade = "the upgrade from " + record.previousVersion() + " to "
        + record.targetVersion() + " started at " + record.startedAt();
    return record
        .owner()
        .map(o -> "node busy: cannot " + operation + " because " + upgrade + " is in progress in "
            + o + ", which commits it; nothing was changed")
        .orElse("cannot " + operation + ": " + upgrade + " is recorded by a journal that names no"
            + " owner (written by a previous version); it is recovered only when the agent starts"
            + " or by `noneops recover`; nothing was changed");
  }
}
