package dev.noneops.core.node;

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
