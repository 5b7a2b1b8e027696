package dev.noneops.core.node;

import dev.noneops.core.node.internal.upgrade.RecoveryOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@code recoverUpgrade} found and did.
 *
 * @param outcome what it did about the upgrade
 * @param upgrade the interrupted upgrade it finished, if there was one
 * @param staleRemoved temp files, stale staging and orphaned saved configuration it removed
 * @param startError when the stack was (re)started and did not become ready, why
 */
public record RecoveryResult(
    Outcome outcome,
    Optional<JournaledUpgrade> upgrade,
    List<Path> staleRemoved,
    Optional<String> startError) {

  /** What recovery did about the upgrade in flight. */
  public enum Outcome {
    /** No upgrade was in flight. */
    NOTHING_TO_DO,
    /** The upgrade had finished and the caller had persisted its configuration: it was committed. */
    COMMITTED,
    /** The upgrade had not finished: the node was rolled back to the version the journal recorded. */
    ROLLED_BACK,
    /** A rollback had already restored everything; only its clean-up was left, and was done. */
    ROLLBACK_FINISHED
  }

  public RecoveryResult {
    staleRemoved = List.copyOf(staleRemoved);
  }

  static RecoveryResult of(RecoveryOutcome outcome) {
    return new RecoveryResult(
        Outcome.valueOf(outcome.action().name()),
        outcome.upgrade().map(JournaledUpgrade::of),
        outcome.staleRemoved(),
        outcome.startError());
  }
}
