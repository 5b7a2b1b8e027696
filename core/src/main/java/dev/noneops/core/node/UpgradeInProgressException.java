package dev.noneops.core.node;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
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

  private final String owner;

  /**
   * @param lockFile the node lock
   * @param operation what was refused, e.g. {@code recover-upgrade}
   * @param previousVersion the version the journaled upgrade left
   * @param targetVersion the version it goes to
   * @param startedAt when it began
   * @param owner the process the journal names (its pid and command); empty when it names none
   */
  public UpgradeInProgressException(
      Path lockFile,
      String operation,
      String previousVersion,
      String targetVersion,
      Instant startedAt,
      Optional<String> owner) {
    super(
        lockFile, operation, message(operation, previousVersion, targetVersion, startedAt, owner));
    this.owner = Objects.requireNonNull(owner, "owner").orElse(null);
  }

  /** The process the journal names; empty when it names none (a journal of a previous format). */
  public Optional<String> owner() {
    return Optional.ofNullable(owner);
  }

  private static String message(
      String operation,
      String previousVersion,
      String targetVersion,
      Instant startedAt,
      Optional<String> owner) {
    String upgrade =
        "the upgrade from " + previousVersion + " to " + targetVersion + " started at " + startedAt;
    return owner
        .map(o -> "node busy: cannot " + operation + " because " + upgrade + " is in progress in "
            + o + ", which commits it; nothing was changed")
        .orElse("cannot " + operation + ": " + upgrade + " is recorded by a journal that names no"
            + " owner (written by a previous version); it is recovered only when the agent starts"
            + " or by `noneops recover`; nothing was changed");
  }
}
