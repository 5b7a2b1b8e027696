package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.util.Objects;
import java.util.Optional;

/**
 * An upgrade did not succeed. Carries what caused it ({@link #getCause()}, whose task path it
 * shares), how the node was left ({@link #outcome()}) and, when the rollback had trouble too,
 * that error. The message is the operator's line, e.g. {@code 1.31.4-… → 1.31.5-… failed at
 * upgrade-start-target › start › wait-kubelet: kubelet.service did not become ready …; rolled
 * back: 1.31.4-… runs again with its configuration}.
 */
public class UpgradeFailedException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final String previousVersion;
  private final String targetVersion;
  private final RollbackOutcome outcome;
  private final Throwable rollbackError;

  public UpgradeFailedException(
      String previousVersion,
      String targetVersion,
      Throwable cause,
      RollbackOutcome outcome,
      Throwable rollbackError) {
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

  /** The message names where the upgrade failed already. */
  @Override
  public String operatorMessage() {
    return getMessage();
  }

  private static String message(
      String previous,
      String target,
      Throwable cause,
      RollbackOutcome outcome,
      Throwable rollbackError) {
    String where = cause instanceof NoneopsException located
        ? located.failedAt().map(at -> " at " + at).orElse("")
        : "";
    String base = previous + " → " + target + " failed" + where + ": "
        + (cause == null ? "unknown cause" : describe(cause));
    return switch (outcome) {
      case NOTHING_CHANGED -> base + "; nothing was changed, " + previous + " keeps running";
      case ROLLED_BACK ->
        base + "; rolled back: " + previous + " runs again with its configuration";
      case PREVIOUS_NOT_READY ->
        base + "; rolled back to " + previous
            + " with its configuration, but it did not become ready: " + located(rollbackError);
      case ROLLBACK_FAILED ->
        base + "; the rollback to " + previous + " failed too (" + located(rollbackError)
            + "); the upgrade journal and saved configuration were kept, run recoverUpgrade to finish the rollback";
    };
  }

  private static String describe(Throwable error) {
    return error == null || error.getMessage() == null
        ? (error == null ? "" : error.getClass().getSimpleName())
        : error.getMessage();
  }

  /** The rollback's own error, with the task path where it happened when it has one. */
  private static String located(Throwable error) {
    String where = error instanceof NoneopsException located
        ? located.failedAt().map(at -> "at " + at + ": ").orElse("")
        : "";
    return where + describe(error);
  }

  /** How the node was left after an upgrade failed. */
  public enum RollbackOutcome {
    /** The upgrade failed before it changed anything the running node uses; nothing needed rolling back. */
    NOTHING_CHANGED,
    /** The previous version runs again, with every shared file as it was before the upgrade. */
    ROLLED_BACK,
    /**
     * The previous version and every shared file were restored, but the previous stack did not come
     * up either; the upgrade state was cleaned up, the failure to start is reported alongside.
     */
    PREVIOUS_NOT_READY,
    /**
     * The rollback itself failed; the journal and saved configuration were kept, so that
     * {@code recoverUpgrade} finishes the rollback (the daemon runs it at its next start).
     */
    ROLLBACK_FAILED
  }
}
