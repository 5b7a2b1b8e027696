package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code commit()}: ends a successful upgrade once the caller has persisted the applied config.
 * Drops the saved configuration, forgets an earlier rollback of this same upgrade, then removes
 * the journal. A crash in between leaves a journal without a complete snapshot, which recovery
 * finishes as a commit (the applied config then has the journal's digest).
 */
public final class UpgradeCommit {
  private final UpgradeContext ctx;

  public UpgradeCommit(UpgradeContext ctx) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
  }

  /**
   * Commits the upgrade in flight.
   *
   * @return the committed upgrade; empty when there was none
   * @throws IllegalStateException when {@code current} does not name the upgrade's target (the
   *     upgrade did not finish; recovery must decide)
   */
  public Optional<UpgradeRecord> run() throws Exception {
    try (NodeLock.Hold hold = ctx.lock().acquire("commit")) {
      Optional<UpgradeRecord> record = ctx.journal().read();
      if (record.isEmpty()) {
        return Optional.empty();
      }
      UpgradeRecord r = record.get();
      Optional<String> active = ctx.currentLink().active();
      if (!active.equals(Optional.of(r.targetVersion()))) {
        throw new IllegalStateException("cannot commit the upgrade to " + r.targetVersion() + ": "
            + ctx.layout().current() + " names " + active.orElse("nothing")
            + "; the upgrade did not finish, run recoverUpgrade");
      }
      finish(ctx, r);
      return record;
    }
  }

  /** The commit itself: drop the saved configuration, forget a rollback of this upgrade, remove the journal. */
  public static void finish(UpgradeContext ctx, UpgradeRecord r) {
    ctx.tasks()
        .execute(Task.of("commit-drop-saved-configuration", () -> ctx.confsnap().drop()));
    ctx.tasks()
        .execute(Task.of(
            "commit-forget-rollback",
            () -> ctx.history().forget(r.targetVersion(), r.configDigest())));
    ctx.tasks().execute(Task.of("commit-remove-journal", () -> ctx.journal().remove()));
  }
}
