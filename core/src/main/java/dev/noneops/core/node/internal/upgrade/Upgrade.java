package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.core.node.UpgradeRefusedException.Reason;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.stack.ClusterReadyGate;
import dev.noneops.core.node.internal.stack.VersionSkew;
import dev.noneops.core.node.internal.state.RolledBackUpgrade;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.core.node.internal.state.UpgradeSteps;
import dev.noneops.core.node.internal.state.UpgradeSteps.Configuration;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.ports.cluster.ClusterNodeException;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code upgrade()} (the protocol of docs/concepts/safety.md): prepare the new version beside the active one, prove
 * offline that a rollback is possible, save the shared files, journal, write the new
 * configuration and switch over (stop; end pods, clean host networking and reset the units'
 * failed state and start-rate counters, side by side; flip; set up host networking; start,
 * bounded wait). On success the journal and the saved configuration stay until commit. On
 * failure the node is rolled back and an {@link UpgradeFailedException} says why and how the node was left.
 * Every failure before the journal exists changes nothing the running node uses.
 *
 * <p>With cluster credentials ({@link UpgradeContext#clusterGate()}) the API server's version is
 * read first, before anything changes: a target kubelet the version skew policy refuses is an
 * {@link UpgradeRefusedException} ({@link Reason#VERSION_SKEW}) unless the policy is overridden,
 * and, when the credentials may read the Node, the readiness gate then includes the cluster's
 * view ({@link ClusterReadyGate}) after kubelet's healthz; a Node that is not Ready within the bound rolls the upgrade back as a kubelet
 * that never answers healthz does. Without credentials, or with the API server unreachable then,
 * the gate is healthz alone, which the result says ({@link VersionSwitch#clusterGate()}).
 */
public final class Upgrade {
  private final UpgradeContext ctx;

  public Upgrade(UpgradeContext ctx) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
  }

  /**
   * Upgrades the node to the target configuration of {@code steps}.
   *
   * @param force retry an upgrade that was rolled back before
   * @throws NodeBusyException when another process holds the node lock
   * @throws UpgradeRefusedException when the upgrade cannot start; nothing changed
   * @throws UpgradeFailedException when it failed; the outcome says how the node was left
   */
  public VersionSwitch run(UpgradeSteps steps, boolean force) throws Exception {
    Objects.requireNonNull(steps, "steps");
    try (NodeLock.Hold hold = ctx.lock().acquire("upgrade")) {
      UpgradeJournal journal = ctx.journal();
      Optional<UpgradeRecord> inFlight = journal.read();
      if (inFlight.isPresent()) {
        UpgradeRecord r = inFlight.get();
        throw new UpgradeRefusedException(
            Reason.UPGRADE_IN_FLIGHT,
            "an upgrade from " + r.previousVersion() + " to " + r.targetVersion() + " started at "
                + r.startedAt() + " is still recorded in " + journal.path()
                + "; run recoverUpgrade (or commit) first");
      }
      String previous = ctx.currentLink()
          .active()
          .orElseThrow(() -> new UpgradeRefusedException(
              Reason.NO_ACTIVE_VERSION,
              "no active version: " + ctx.layout().current()
                  + " does not exist; provision the node first"));
      String target = steps.targetVersion();
      String digest = steps.targetConfigDigest();
      LocalDnsInterface targetLocalDns = steps.localDnsInterface(Configuration.TARGET);
      if (!force) {
        Optional<RolledBackUpgrade> before = ctx.history().find(target, digest);
        if (before.isPresent()) {
          throw new UpgradeRefusedException(
              Reason.ROLLED_BACK_BEFORE,
              "the upgrade to " + target + " with this configuration was rolled back at "
                  + before.get().rolledBackAt() + " (" + before.get().reason()
                  + "); retry it only with force");
        }
      }

      Gate checked = gate(steps);

      try {
        String prepared = call("upgrade-prepare", steps::prepareTarget);
        if (!prepared.equals(target)) {
          throw new IllegalStateException(
              "prepare installed " + prepared + " but the target configuration names " + target);
        }
      } catch (RuntimeException e) {
        throw new UpgradeFailedException(
            previous, target, e, RollbackOutcome.NOTHING_CHANGED, null);
      }

      try {
        run("upgrade-verify-previous-version", () -> steps.verifyVersion(previous));
        run("upgrade-verify-rollback-configuration", steps::verifyRollbackConfiguration);
      } catch (RuntimeException e) {
        throw new UpgradeRefusedException(
            Reason.ROLLBACK_NOT_POSSIBLE,
            "refusing to upgrade from " + previous + " to " + target
                + ": a rollback could not be proven possible: " + e.getMessage(),
            e);
      }

      SavedConfiguration confsnap = ctx.confsnap();
      try {
        run("upgrade-discard-stale-saved-configuration", confsnap::drop);
        run(
            "upgrade-save-configuration",
            () -> confsnap.save(steps.sharedFiles(EnumSet.allOf(Configuration.class))));
      } catch (RuntimeException e) {
        throw new UpgradeFailedException(
            previous, target, e, RollbackOutcome.NOTHING_CHANGED, discard(confsnap::drop));
      }

      // the target is prepared (which may take minutes): is the Node still readable, just
      // before the switch? Otherwise the gate is healthz alone, as for an API server down then
      Gate gate = checked.cluster().isEmpty() ? checked : stillReadable(checked, steps.nodeName());

      UpgradeRecord record = new UpgradeRecord(
          previous, target, digest, ctx.clock().now(), Optional.of(targetLocalDns), owner());
      try {
        run("upgrade-write-journal", () -> journal.write(record));
      } catch (RuntimeException e) {
        throw new UpgradeFailedException(
            previous, target, e, RollbackOutcome.NOTHING_CHANGED, discard(() -> {
              journal.remove();
              confsnap.drop();
            }));
      }

      try {
        run("upgrade-write-configuration", () -> steps.writeConfiguration(Configuration.TARGET));
        run("upgrade-stop-stack", steps::stopStack);
        ctx.tasks().execute(clearHost(steps, record));
        AtomicReference<Instant> switchedAt = new AtomicReference<>();
        run("upgrade-switch-current", () -> {
          switchedAt.set(ctx.clock().now());
          ctx.currentLink().pointAt(target);
        });
        run(
            "upgrade-set-up-host-networking",
            () -> steps.setUpHostNetworking(Configuration.TARGET));
        run("upgrade-start-target", () -> steps.startStack(Configuration.TARGET));
        if (gate.cluster().isPresent()) {
          ClusterReadyGate cluster = gate.cluster().get();
          run(
              "upgrade-await-cluster-ready",
              () ->
                  cluster.await(steps.nodeName(), steps.targetKubeletVersion(), switchedAt.get()));
        }
      } catch (RuntimeException cause) {
        throw rollBack(steps, record, cause);
      }
      return new VersionSwitch(previous, target, gate.cluster().isPresent(), gate.detail());
    }
  }

  /** The readiness gate chosen before the switch, with the cluster's part when it has one. */
  private record Gate(String detail, Optional<ClusterReadyGate> cluster) {}

  /** The gate of a node without cluster credentials, in words. */
  public static final String NO_CREDENTIALS = "no cluster credentials: kubelet's healthz alone";

  /**
   * Chooses the readiness gate, and checks the version skew policy, before anything changes: the
   * cluster's view when the node has credentials, knows its Node's name and kubelet version, and
   * the API server answers {@code /version}; kubelet's healthz alone otherwise (a warning).
   *
   * @throws UpgradeRefusedException when the target's kubelet breaks the version skew policy and
   *     the policy is not overridden
   */
  private Gate gate(UpgradeSteps steps) {
    Optional<ClusterReadyGate> configured = ctx.clusterGate();
    if (configured.isEmpty()) {
      return new Gate(NO_CREDENTIALS, Optional.empty());
    }
    ClusterReadyGate cluster = configured.get();
    String kubelet = steps.targetKubeletVersion();
    String node = steps.nodeName();
    if (kubelet.isEmpty() || node.isEmpty()) {
      return new Gate(
          "the target names no Node or kubelet version: kubelet's healthz alone", Optional.empty());
    }
    String server;
    try {
      server = cluster.serverVersion();
    } catch (IOException | RuntimeException e) {
      boolean refused =
          e instanceof ClusterNodeException c && c.kind() == ClusterNodeException.Kind.FORBIDDEN;
      String why = (refused
              ? "no usable cluster credentials ("
              : "API server unreachable before the switch (")
          + oneLine(e) + "): kubelet's healthz alone; the version skew policy was not checked";
      ctx.log().atWarn().addKeyValue("error", e.getMessage()).log(why);
      return new Gate(why, Optional.empty());
    }
    Optional<String> skew = VersionSkew.violation(kubelet, server);
    if (skew.isPresent()) {
      if (!cluster.check().ignoreVersionSkew()) {
        throw new UpgradeRefusedException(
            Reason.VERSION_SKEW,
            "refusing to upgrade: " + skew.get() + " (override with --ignore-version-skew)");
      }
      ctx.log()
          .atWarn()
          .log(skew.get() + "; upgrading all the same, as the version skew policy is overridden");
    }
    return new Gate(
        "kubelet's healthz, then the Node " + node + " Ready with kubelet "
            + VersionSkew.withV(kubelet) + ", this boot's id and a heartbeat newer than the"
            + " switch, within " + ClusterReadyGate.describe(cluster.check().readyWithin())
            + " (API server " + server + ")",
        Optional.of(cluster));
  }

  /**
   * {@code checked} when its cluster can still be asked about the Node {@code node} just before
   * the switch; the healthz-only gate, saying why, when the credentials may not read the Node (a
   * bootstrap token's) or the API server cannot be reached.
   */
  private Gate stillReadable(Gate checked, String node) {
    ClusterReadyGate cluster = checked.cluster().orElseThrow();
    try {
      cluster.check().cluster().readiness(node);
      return checked;
    } catch (IOException | RuntimeException e) {
      boolean refused =
          e instanceof ClusterNodeException c && c.kind() == ClusterNodeException.Kind.FORBIDDEN;
      String why = (refused
              ? "the cluster credentials may not read the Node " + node + " ("
              : "API server unreachable before the switch (")
          + oneLine(e) + "): kubelet's healthz alone";
      ctx.log().atWarn().addKeyValue("error", e.getMessage()).log(why);
      return new Gate(why, Optional.empty());
    }
  }

  /**
   * What the stopped stack leaves to clear before the flip, side by side ({@link
   * TaskRunner#parallel}): end the pods, clean the host networking, and reset the units' failed
   * state and start-rate counters (the previous version's restarts must not use up the limit the
   * target's start needs). They touch disjoint parts of the host, and only cleaning the host
   * networking changes anything a crash leaves (the CNI directories): processes, links and
   * systemd's counters are gone after a power loss, so every interleaving leaves a disk that the
   * one-after-the-other order of the simulation leaves too, and the crash-point suite covers them
   * all ({@code SideBySideUpgradeStepsTest} checks that the other two leave every file as it
   * was).
   */
  /**
   * This process as the upgrade's owner; empty (the journal then reads as one of the previous
   * format, recovered only at a start) when the host cannot say which process or boot this is.
   */
  private Optional<UpgradeRecord.Owner> owner() {
    try {
      return Optional.of(ctx.owners().self());
    } catch (IOException | RuntimeException e) {
      ctx.log()
          .atWarn()
          .addKeyValue("error", e.getMessage())
          .log("cannot tell which process and boot this is; the upgrade journal names no owner");
      return Optional.empty();
    }
  }

  private Task clearHost(UpgradeSteps steps, UpgradeRecord record) {
    return ctx.tasks()
        .parallel(
            "upgrade-clear-host",
            Task.of("upgrade-end-pods", steps::endPods),
            Task.of(
                "upgrade-clean-host-networking",
                () -> steps.cleanHostNetworking(record.targetLocalDns(), Configuration.TARGET)),
            Task.of("upgrade-reset-failed", steps::resetFailed));
  }

  private UpgradeFailedException rollBack(
      UpgradeSteps steps, UpgradeRecord record, RuntimeException cause) {
    Rollback rollback = new Rollback(ctx, steps);
    String previous = record.previousVersion();
    String target = record.targetVersion();
    try {
      rollback.remember(record, oneLine(cause));
    } catch (Exception e) {
      ctx.log()
          .atWarn()
          .addKeyValue("error", e.getMessage())
          .log("could not remember the rolled-back upgrade; rolling back anyway");
    }
    try {
      rollback.restorePrevious(record);
    } catch (Exception e) {
      return new UpgradeFailedException(
          previous, target, cause, RollbackOutcome.ROLLBACK_FAILED, e);
    }
    Optional<RuntimeException> startError = rollback.startPrevious();
    try {
      rollback.finish();
    } catch (RuntimeException e) {
      return new UpgradeFailedException(
          previous, target, cause, RollbackOutcome.ROLLBACK_FAILED, e);
    }
    return startError
        .map(e -> new UpgradeFailedException(
            previous, target, cause, RollbackOutcome.PREVIOUS_NOT_READY, e))
        .orElseGet(() ->
            new UpgradeFailedException(previous, target, cause, RollbackOutcome.ROLLED_BACK, null));
  }

  /** Runs a best-effort clean-up after a failure that changed nothing; its own failure, if any. */
  private static Exception discard(Task.Body cleanup) {
    try {
      cleanup.run();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  private void run(String name, Task.Body body) {
    ctx.tasks().execute(Task.of(name, body));
  }

  private <T> T call(String name, Callable<T> body) {
    return ctx.tasks().call(name, body);
  }

  /** Why an upgrade failed, on one line of at most 300 characters: where (the task path) and what. */
  public static String oneLine(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (t instanceof NoneopsException located && located.failedAt().isPresent()) {
      message = "at " + located.failedAt().get() + ": " + message;
    }
    String line = message.replace('\n', ' ');
    return line.length() <= 300 ? line : line.substring(0, 300) + "...";
  }
}
