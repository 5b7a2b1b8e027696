package dev.noneops.daemon;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.RecoveryMode;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.UpgradeInProgressException;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * What the daemon recovers of an upgrade a crash interrupted: at its start, any upgrade in flight
 * (after the boot's recovery gate there is none left; a daemon restarted on a running node may
 * find one of its own); at a tick, one whose owner is gone, before anything is applied over it, a
 * recovery that cannot finish being tried again once a minute. Also says whether the boot's
 * recovery gate ran, so the boot's recovery is told once.
 */
final class StartRecovery {
  private static final Duration RECOVERY_RETRY = Duration.ofMinutes(1);

  private final HostPorts ports;
  private final Layout layout;
  private final HostPaths paths;
  private final BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes;
  private final Path configFile;
  private final Logger log;
  private final DaemonJournal journal;
  private Instant retryRecoveryAt = Instant.MIN;

  /**
   * @param nodes makes a node bound to a configuration and the one a rollback restores
   * @param configFile the file the daemon watches, which its log lines name
   */
  StartRecovery(
      HostPorts ports,
      Layout layout,
      HostPaths paths,
      BiFunction<Optional<AgentConfig>, Optional<AgentConfig>, Node> nodes,
      Path configFile,
      Logger log,
      DaemonJournal journal) {
    this.ports = ports;
    this.layout = layout;
    this.paths = paths;
    this.nodes = nodes;
    this.configFile = configFile;
    this.log = log;
    this.journal = journal;
  }

  /** At the daemon's start: whatever a crash interrupted is recovered. */
  AgentState.Event atStart() {
    return recover(false);
  }

  /**
   * @param watching whether the daemon watches the node already (a tick), where only an upgrade
   *     whose owner is gone is recovered; at its start, one whose journal names no owner is too
   */
  private AgentState.Event recover(boolean watching) {
    Instant now = ports.clock().now();
    Optional<AgentConfig> applied;
    try {
      if (!ports.files().exists(layout.root())) {
        log.warn("no node on this host: nothing to recover; watching {}", configFile);
        return new AgentState.Event(now, "start-recovery", "NO_NODE", "no node on this host");
      }
      applied = new AppliedConfigStore(ports.files(), paths).read();
    } catch (IOException | RuntimeException e) {
      log.error("cannot read the applied configuration: {}", DaemonJournal.message(e));
      return new AgentState.Event(
          now,
          "start-recovery",
          "FAILED",
          "cannot read the applied configuration: " + DaemonJournal.message(e));
    }
    if (applied.isEmpty()) {
      if (exists(layout.journal())) {
        log.error(
            "an upgrade is in flight and the applied configuration at {} is missing: it cannot be"
                + " finished; restore the file and run `noneops recover`, or `noneops reset`",
            paths.appliedConfig());
        return new AgentState.Event(
            now,
            "start-recovery",
            "FAILED",
            "an upgrade is in flight and the applied configuration at " + paths.appliedConfig()
                + " is missing");
      }
      return new AgentState.Event(
          now, "start-recovery", "NOTHING_TO_DO", "no applied configuration");
    }
    journal.operationBegins();
    try {
      Node node = nodes.apply(applied, applied);
      RecoveryResult r = watching
          ? node.recoverUpgrade(applied.get(), RecoveryMode.ABANDONED_ONLY)
          : node.recoverUpgrade(applied.get());
      String detail = r.outcome() == RecoveryResult.Outcome.NOTHING_TO_DO
          ? "nothing in flight"
          : r.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ')
              + r.upgrade()
                  .map(u -> ": " + u.previousVersion() + " → " + u.targetVersion())
                  .orElse("");
      r.startError()
          .ifPresent(e -> log.error(
              "after recovery the stack did not start: {}", UrlRedaction.redact(e.toString())));
      if (r.outcome() != RecoveryResult.Outcome.NOTHING_TO_DO) {
        journal
            .ending(
                Level.WARN,
                "recovery",
                r.startError().isPresent() ? "FAILED" : r.outcome().name(),
                r.upgrade().map(u -> u.previousVersion()),
                r.upgrade().map(u -> u.targetVersion()),
                Optional.empty())
            .log("recovered at start: {}", detail);
      }
      return new AgentState.Event(
          ports.clock().now(),
          "start-recovery",
          r.startError().isPresent() ? "FAILED" : r.outcome().name(),
          r.startError().map(e -> detail + "; the stack did not start: " + e).orElse(detail));
    } catch (UpgradeInProgressException inProgress) {
      if (journal.saying("in-progress " + inProgress.getMessage())) {
        log.info("not recovering: {}", inProgress.operatorMessage());
      }
      return new AgentState.Event(
          ports.clock().now(), "start-recovery", "IN_PROGRESS", inProgress.operatorMessage());
    } catch (NodeBusyException busy) {
      log.info("an operation holds the node lock ({}); it recovers on its own", busy.operation());
      return new AgentState.Event(
          ports.clock().now(), "start-recovery", "LIVE_NODE", "an operation held the node lock");
    } catch (NoneopsException e) {
      journal
          .ending(
              Level.ERROR, "recovery", "FAILED", Optional.empty(), Optional.empty(), Optional.of(e))
          .log("recovery failed: {}", UrlRedaction.redact(e.operatorMessage()));
      return new AgentState.Event(
          ports.clock().now(), "start-recovery", "FAILED", e.operatorMessage());
    } finally {
      journal.operationEnds();
    }
  }

  /**
   * An upgrade journal whose owner is gone (the process that ran the upgrade died: a killed {@code
   * noneops upgrade}) is recovered, as at a boot, before anything else is applied over it. One
   * whose owner still runs is left to it: the spec lets an embedding agent release the node
   * between its upgrade and its commit while it persists the applied configuration. One that
   * names no owner (of a previous format) is recovered only at a start. Nothing is applied over
   * either.
   *
   * @return whether the tick found one (recovered, or to try again when the lock is free)
   */
  boolean abandonedUpgrade() {
    try {
      if (!ports.files().exists(layout.journal())) {
        return false;
      }
    } catch (IOException e) {
      log.warn("cannot read {}: {}", layout.journal(), e.getMessage());
      return false;
    }
    if (ports.clock().now().isBefore(retryRecoveryAt)) {
      return true;
    }
    AgentState.Event recovery = recover(true);
    if (recovery.outcome().equals("LIVE_NODE") || recovery.outcome().equals("IN_PROGRESS")) {
      return true;
    }
    if (recovery.outcome().equals("FAILED")) {
      // a recovery that cannot finish (the gate's case: the stack stays down) is tried again
      // once a minute, not at every tick
      retryRecoveryAt = ports.clock().now().plus(RECOVERY_RETRY);
      journal.record("recovery", recovery.outcome(), recovery.detail());
      return true;
    }
    log.warn("an upgrade whose agent died was found: {}", recovery.detail());
    journal.record("recovery", recovery.outcome(), recovery.detail());
    return true;
  }

  /**
   * Whether the recovery gate ran in this boot: a gate that ran stays active (exited) or failed
   * until the next boot; one its conditions skipped (nothing in flight) is inactive, and the boot
   * recovery the state records is an earlier boot's, already told.
   */
  boolean gateRanThisBoot() {
    try {
      UnitStatus gate = ports.systemd().status(HostPaths.RECOVERY_GATE_UNIT);
      return RecoveryGate.ranThisBoot(gate.active());
    } catch (SystemdException e) {
      return false;
    }
  }

  private boolean exists(Path path) {
    try {
      return ports.files().exists(path);
    } catch (IOException e) {
      return false;
    }
  }
}
