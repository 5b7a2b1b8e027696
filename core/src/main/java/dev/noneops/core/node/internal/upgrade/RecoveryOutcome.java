package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.node.internal.state.UpgradeRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a recovery found and did.
 *
 * @param action what it did about the upgrade in flight
 * @param upgrade the journaled upgrade it finished or rolled back, if there was one
 * @param staleRemoved temp files, stale staging and orphaned saved configuration it removed
 * @param startError when the stack was (re)started and did not become ready, why
 */
public record RecoveryOutcome(
    Action action,
    Optional<UpgradeRecord> upgrade,
    List<Path> staleRemoved,
    Optional<String> startError) {
  /** What recovery did about the upgrade in flight. */
  public enum Action {
    NOTHING_TO_DO,
    COMMITTED,
    ROLLED_BACK,
    ROLLBACK_FINISHED
  }

  public RecoveryOutcome {
    staleRemoved = List.copyOf(staleRemoved);
  }
}
