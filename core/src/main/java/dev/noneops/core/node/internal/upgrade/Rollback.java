package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.state.RolledBackUpgrade;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.state.UpgradeSteps;
import dev.noneops.core.node.internal.state.UpgradeSteps.Configuration;
import dev.noneops.core.node.internal.task.Task;
import java.util.Optional;

/**
 * Puts the node back on the version an upgrade started from: stop the stack and end its pods,
 * clean the host networking (the target's LocalDNS interface as the journal recorded it
 * included), flip {@code current} back, write the units and configuration of the
 * applied configuration, restore every saved shared file, reload systemd so that it runs the
 * restored unit files (not a definition it loaded before), set its host networking up again,
 * reset-failed and start the previous stack; then drop the saved configuration, then the journal.
 * Every step converges when run again, which is what lets recovery repeat a rollback a crash
 * interrupted. The upgrade is remembered in the {@link RollbackHistory} before anything is
 * switched back, so the same upgrade is not retried blindly.
 */
public final class Rollback {
  private final UpgradeContext ctx;
  private final UpgradeSteps steps;

  public Rollback(UpgradeContext ctx, UpgradeSteps steps) {
    this.ctx = ctx;
    this.steps = steps;
  }

  /** Remembers that {@code record}'s upgrade was rolled back, and why. */
  public void remember(UpgradeRecord record, String reason) throws Exception {
    ctx.history()
        .remember(new RolledBackUpgrade(
            record.targetVersion(), record.configDigest(), ctx.clock().now(), reason));
  }

  /**
   * Everything up to the start of the previous stack: afterwards the previous version is active
   * and every shared file is as it was before the upgrade (when a complete snapshot exists).
   *
   * @return whether the saved configuration was restored (false when it was not complete)
   */
  public boolean restorePrevious(UpgradeRecord record) throws Exception {
    return restorePrevious(record, true);
  }

  /**
   * {@link #restorePrevious(UpgradeRecord)}; at boot ({@code stopStack} false) the stack is not
   * stopped: nothing of it runs yet, and a stop job would cancel the start jobs systemd has
   * queued behind the recovery gate.
   */
  public boolean restorePrevious(UpgradeRecord record, boolean stopStack) throws Exception {
    if (stopStack) {
      run("rollback-stop-stack", steps::stopStack);
    }
    run("rollback-end-pods", steps::endPods);
    run(
        "rollback-clean-host-networking",
        () -> steps.cleanHostNetworking(record.targetLocalDns(), Configuration.APPLIED));
    run("rollback-switch-current", () -> ctx.currentLink().pointAt(record.previousVersion()));
    run("rollback-write-configuration", () -> steps.writeConfiguration(Configuration.APPLIED));
    boolean complete = ctx.confsnap().state() == SavedConfiguration.State.COMPLETE;
    if (complete) {
      run("rollback-restore-saved-configuration", () -> ctx.confsnap().restore());
    } else {
      ctx.log()
          .atWarn()
          .addKeyValue("confsnap", ctx.layout().confsnap())
          .log(
              "no complete saved configuration to restore; the applied configuration's files were written instead");
    }
    // systemd holds whichever definitions it loaded last: the rollback's own rendering, or after an
    // interruption the target's; the previous stack must start from the unit files now on disk
    run("rollback-reload-units", steps::reloadUnits);
    run("rollback-set-up-host-networking", () -> steps.setUpHostNetworking(Configuration.APPLIED));
    run("rollback-reset-failed", steps::resetFailed);
    return complete;
  }

  /** Starts the previous stack and waits for it; the failure, if it did not become ready. */
  public Optional<RuntimeException> startPrevious() {
    try {
      run("rollback-start-previous", () -> steps.startStack(Configuration.APPLIED));
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(e);
    }
  }

  /** Drops the saved configuration, then the journal: the rollback is over. */
  public void finish() {
    run("rollback-drop-saved-configuration", () -> ctx.confsnap().drop());
    run("rollback-remove-journal", () -> ctx.journal().remove());
  }

  private void run(String name, Task.Body body) {
    ctx.tasks().execute(Task.of(name, body));
  }
}
