package dev.noneops.core.upgrade;

import java.util.Objects;
import java.util.Optional;

/**
 * An upgrade did not succeed. Carries what caused it ({@link #getCause()}), how the node was left
 * ({@link #outcome()}) and, when the rollback had trouble too, that error.
 */
public class UpgradeFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String previousVersion;
  private final String targetVersion;
  private final RollbackOutcome outcome;
  private final Throwable rollbackError;

  public UpgradeFailedException(
      String previousVersion, String targetVersion, Throwable cause, RollbackOutcome outcome, Throwable rollbackError) {
    super(message(previousVersion, targetVersion, cause, outcome, rollbackError), cause);
    this.previousVersion = Objects.requireNonNull(previousVersion, "previousVersion");
    this.targetVersion = Objects.requireNonNull(targetVersion, "targetVersion");
    this.outcome = Objects.requireNonNull(outcome, "outcome");
    this.rollbackError = rollbackError;
    if (rollbackError != null) {
      addSuppressed(rollbackError);
    }
  }

  public String previousVersion() {
    return previousVersion;
  }

  public String targetVersion() {
    return targetVersion;
  }

  public RollbackOutcome outcome() {
    return outcome;
  }

  /** What went wrong during the rollback (or while starting the previous version), if anything. */
  public Optional<Throwable> rollbackError() {
    return Optional.ofNullable(rollbackError);
  }

  private static String message(String previous, String target, Throwable cause, RollbackOutcome outcome, Throwable rollbackError) {
    String base = "upgrade from " + previous + " to " + target + " failed: " + (cause == null ? "unknown cause" : cause.getMessage());
    return switch (outcome) {
      case NOTHING_CHANGED -> base + "; nothing was changed, " + previous + " keeps running";
      case ROLLED_BACK -> base + "; rolled back: " + previous + " runs again with its configuration restored";
      case PREVIOUS_NOT_READY -> base + "; rolled back to " + previous + " with its configuration restored, but it did not become ready: "
          + (rollbackError == null ? "" : rollbackError.getMessage());
      case ROLLBACK_FAILED -> base + "; the rollback to " + previous + " failed too ("
          + (rollbackError == null ? "" : rollbackError.getMessage())
          + "); the upgrade journal and saved configuration were kept, run recoverUpgrade to finish the rollback";
    };
  }
}
