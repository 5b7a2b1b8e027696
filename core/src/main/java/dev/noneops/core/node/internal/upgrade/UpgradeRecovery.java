package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeInProgressException;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.files.SavedFile;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.state.UpgradeSteps;
import dev.noneops.core.node.internal.state.UpgradeSteps.Configuration;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code recoverUpgrade(applied)}: run at daemon start, finishes whatever a crash interrupted.
 *
 * <ul>
 *   <li>First it removes what interrupted writes left: temp files in the directories the node
 *       writes and the layout's stale staging; and it finishes the removal of a version a prune
 *       had started (its tombstone).
 *   <li>No journal: nothing was in flight; a saved configuration without a journal (a crash while
 *       saving it) is dropped.
 *   <li>The applied config has the journal's digest and {@code current} names the journal's
 *       target: the upgrade had finished and been persisted, so it is committed, and the stack
 *       is started if it is not running.
 *   <li>The saved configuration is incomplete or gone and {@code current} already names the
 *       previous version: a rollback had restored everything and was cleaning up; the clean-up
 *       is finished and the stack started if it is not running.
 *   <li>Otherwise the node is rolled back to the journal's previous version with the applied
 *       configuration ({@link Rollback}).
 * </ul>
 *
 * An upgrade is interrupted only when its owner is gone: a journal naming a process that still
 * runs in this boot (one that released the node between its upgrade and its commit, while it
 * persists the applied configuration) is that process's, and recovery refuses it with {@link
 * UpgradeInProgressException}, changing nothing; a journal naming this very process is this
 * process's to recover. A journal that names no owner (of a previous format) is recovered when
 * the {@link Claim} allows it: at a start, not while the agent watches.
 *
 * <p>Recovery may itself be interrupted and run again; once it has finished, running it again
 * changes nothing.
 */
public final class UpgradeRecovery {
  /** Where recovery runs: on a live node, or in the recovery gate at boot. */
  public enum Mode {
    /** On a running host (the daemon's start, {@code noneops recover}): the stack is started. */
    LIVE,
    /**
     * In the recovery gate, before the stack's units: the node's files and links are made
     * consistent, the stack is neither stopped nor started (systemd starts it after the gate).
     */
    BOOT
  }

  /** Which journals a recovery takes for interrupted. */
  public enum Claim {
    /** One whose owner is gone or is this process, and one that names no owner. */
    UNLESS_OWNER_RUNS,
    /** Only one whose owner is gone or is this process: the daemon's check while it watches. */
    ONLY_ABANDONED
  }

  private final UpgradeContext ctx;
  private final Mode mode;

  public UpgradeRecovery(UpgradeContext ctx) {
    this(ctx, Mode.LIVE);
  }

  public UpgradeRecovery(UpgradeContext ctx, Mode mode) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  /**
   * Recovers the node.
   *
   * @param steps the node's steps, whose {@link Configuration#APPLIED applied} configuration is the
   *     applied config the daemon started with
   * @param appliedDigest that applied config's digest
   */
  public RecoveryOutcome run(UpgradeSteps steps, String appliedDigest) throws Exception {
    return run(steps, appliedDigest, Claim.UNLESS_OWNER_RUNS);
  }

  /**
   * Recovers the node when {@code claim} takes its journal for interrupted.
   *
   * @throws UpgradeInProgressException when it does not; nothing was changed
   */
  public RecoveryOutcome run(UpgradeSteps steps, String appliedDigest, Claim claim)
      throws Exception {
    Objects.requireNonNull(steps, "steps");
    Objects.requireNonNull(appliedDigest, "appliedDigest");
    Objects.requireNonNull(claim, "claim");
    try (NodeLock.Hold hold = ctx.lock().acquire("recover-upgrade")) {
      Optional<UpgradeRecord> journaled = ctx.journal().read();
      if (journaled.isPresent()) {
        requireInterrupted(journaled.get(), claim);
        if (claim == Claim.ONLY_ABANDONED) {
          requireAppliedUnchanged(appliedDigest);
        }
      }
      List<Path> stale = new ArrayList<>(sweep(steps));
      SavedConfiguration confsnap = ctx.confsnap();
      if (journaled.isEmpty()) {
        if (confsnap.state() != SavedConfiguration.State.ABSENT) {
          run("recover-drop-orphaned-saved-configuration", confsnap::drop);
          stale.add(confsnap.directory());
        }
        return new RecoveryOutcome(
            RecoveryOutcome.Action.NOTHING_TO_DO, Optional.empty(), stale, Optional.empty());
      }
      UpgradeRecord record = journaled.get();
      Optional<String> active = ctx.currentLink().active();
      boolean onTarget = active.equals(Optional.of(record.targetVersion()));
      if (onTarget && record.configDigest().equals(appliedDigest)) {
        UpgradeCommit.finish(ctx, record);
        return new RecoveryOutcome(
            RecoveryOutcome.Action.COMMITTED, journaled, stale, ensureRunning(steps));
      }
      Rollback rollback = new Rollback(ctx, steps);
      boolean onPrevious = active.equals(Optional.of(record.previousVersion()));
      if (onPrevious && confsnap.state() != SavedConfiguration.State.COMPLETE) {
        rollback.finish();
        return new RecoveryOutcome(
            RecoveryOutcome.Action.ROLLBACK_FINISHED, journaled, stale, ensureRunning(steps));
      }
      run(
          "recover-remember-rollback",
          () -> rollback.remember(
              record,
              "the upgrade was interrupted (the agent or the host stopped during it) and rolled back at recovery"));
      rollback.restorePrevious(record, mode == Mode.LIVE);
      Optional<String> startError =
          mode == Mode.LIVE ? rollback.startPrevious().map(Upgrade::oneLine) : Optional.empty();
      rollback.finish();
      return new RecoveryOutcome(RecoveryOutcome.Action.ROLLED_BACK, journaled, stale, startError);
    }
  }

  private void requireInterrupted(UpgradeRecord record, Claim claim) throws IOException {
    Optional<UpgradeRecord.Owner> owner = record.owner();
    boolean interrupted = owner.isEmpty()
        ? claim == Claim.UNLESS_OWNER_RUNS
        : ctx.owners().isGone(owner.get()) || ctx.owners().isSelf(owner.get());
    if (!interrupted) {
      throw new UpgradeInProgressException(
          ctx.layout().lock(),
          "recover-upgrade",
          record.previousVersion(),
          record.targetVersion(),
          record.startedAt(),
          record.owner().map(Object::toString));
    }
  }

  /**
   * The applied configuration the caller read before it had the node lock is still the one on
   * disk: what decides between commit and rollback is read under the lock.
   */
  private void requireAppliedUnchanged(String appliedDigest) throws IOException {
    AppliedConfigStore store = new AppliedConfigStore(ctx.files(), ctx.hostPaths());
    Optional<String> now = store.read().map(c -> ConfigDigest.of(c).hex());
    if (!now.equals(Optional.of(appliedDigest))) {
      throw new NodeBusyException(
          ctx.layout().lock(),
          "recover-upgrade",
          "node busy: the applied configuration at " + ctx.hostPaths().appliedConfig()
              + " changed while recovery waited for the node lock; nothing was changed, it is read"
              + " again at the next try");
    }
  }

  private List<Path> sweep(UpgradeSteps steps) throws Exception {
    Set<Path> dirs = new TreeSet<>();
    try {
      for (Path file : steps.sharedFiles(EnumSet.of(Configuration.APPLIED))) {
        if (file.getParent() != null) {
          dirs.add(file.getParent());
        }
      }
    } catch (Exception e) {
      ctx.log()
          .atWarn()
          .addKeyValue("error", e.getMessage())
          .log(
              "cannot list the applied configuration's shared files; sweeping only the layout and the saved configuration's directories");
    }
    SavedConfiguration confsnap = ctx.confsnap();
    if (confsnap.state() == SavedConfiguration.State.COMPLETE) {
      for (SavedFile saved : confsnap.read()) {
        if (saved.path().getParent() != null) {
          dirs.add(saved.path().getParent());
        }
      }
    }
    List<Path> removed = new ArrayList<>();
    run(
        "recover-remove-stale-files",
        () -> removed.addAll(
            new StaleFileSweeper(ctx.files(), ctx.layout(), ctx.remover()).sweep(dirs)));
    return removed;
  }

  private Optional<String> ensureRunning(UpgradeSteps steps) throws Exception {
    if (mode == Mode.BOOT || steps.running()) {
      return Optional.empty();
    }
    try {
      run("recover-start-stack", () -> steps.startStack(Configuration.APPLIED));
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(Upgrade.oneLine(e));
    }
  }

  private void run(String name, Task.Body body) {
    ctx.tasks().execute(Task.of(name, body));
  }
}
