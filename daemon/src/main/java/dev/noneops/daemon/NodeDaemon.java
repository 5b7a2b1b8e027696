package dev.noneops.daemon;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.daemon.internal.ClusterEventSink;
import dev.noneops.daemon.internal.DaemonEvents;
import dev.noneops.daemon.internal.MachineFollower;
import dev.noneops.daemon.internal.MachineWorker;
import dev.noneops.daemon.internal.UnitWatch;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.metrics.AgentFigures;
import dev.noneops.ports.metrics.AgentMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * {@code noneops daemon}: keeps the node as its configuration file says.
 *
 * <ul>
 *   <li>{@link #start()}: recovers what a crash interrupted (after the recovery gate at boot there
 *       is nothing left to do; a daemon restarted on a running node may find an operation of its
 *       own to finish), then tells the service manager it is ready;
 *   <li>each {@link #tick()}: first, an upgrade journal whose owner is gone (the process that ran
 *       it died: a killed {@code noneops upgrade}) is recovered, as a boot would, before anything
 *       is applied over it; one whose owner still runs (an embedding agent between its upgrade and
 *       its commit) is left to it; then it reads the configuration file, unless a user or group
 *       other than root can change it or a directory above it ({@link RootOnlyPath}): such a file
 *       is not read nor applied, the node keeps the configuration applied last, and the refusal,
 *       naming the entry, its owner and mode, is logged once and recorded ({@code UNTRUSTED}); a
 *       changed, valid file (one whose
 *       content differs from the last the daemon acted on, remembered across restarts, so an
 *       operator's own {@code noneops upgrade} is not undone by a file that did not change) is applied
 *       through the same operations as the CLI ({@link Node#apply()} for a configuration of the
 *       running version, {@link Node#upgradeAndCommit(UpgradeOptions)} for another version),
 *       under the node lock; an invalid file is refused with every violation logged and the node
 *       keeps running as it is; a target whose upgrade rolled back is quarantined until the file
 *       changes; a busy node is tried again at the next tick. Between ticks the loop looks at
 *       the file's metadata every slice (one {@code lstat}, 200 ms): a file whose metadata
 *       changed and then held for a slice (written completely, or renamed into place) has a
 *       tick run at once, so a change is acted on within about half a second rather than at the
 *       next poll interval (which stays the fallback, for a file behind a symbolic link say);
 *   <li>the stack's units, through systemd's signals ({@link UnitWatch}): a failure is logged the
 *       moment it is signalled and wakes the loop for a tick at once; without the signals, the
 *       units are read at every tick;
 *   <li>systemd itself: each tick first reads the manager's state; while systemd does not answer
 *       (the system bus restarted, say) the tick does nothing else, which is logged once: a
 *       changed file waits for systemd instead of failing against it, {@link #alive} is false so
 *       the watchdog goes unfed (a systemd that stays unreachable restarts the daemon), and
 *       {@link #systemdUnreachableSince} says since when;
 *   <li>with a cluster ({@link #followMachine}), the node's {@code Machine}: at start, after the
 *       recovery, the Machine the applied configuration names is registered and watched; a tick
 *       after an event starts one repave pass (drain, the Node object removed, apply or upgrade,
 *       kubelet's registration waited for, uncordon, the Machine's status), the first one after
 *       a restart reporting a repave whose upgrade the recovery rolled back. That API work runs
 *       off the tick's thread ({@link MachineWorker}): an API server that does not answer holds
 *       up nothing else. A cluster without the Machine CRD is one error in the journal; the
 *       daemon keeps its other duties.
 * </ul>
 *
 * What it did is kept in {@link AgentState} for {@code noneops status}, with its counters
 * (operations by kind and outcome, bytes downloaded and verified), which a restarted daemon goes on
 * from. Its figures ({@link AgentFigures}) go to the {@link AgentMetrics} it {@linkplain #reportTo
 * reports to} at its start and after every tick, and so does each operation's duration; the node's
 * events reach it through {@link #nodeEvents()}, which the nodes it is given must be wired to for
 * bytes and switch-over durations to be counted.
 *
 * <p>This class is the daemon's lifecycle; its parts do the work: {@code StartRecovery}, {@code
 * ConfigFileFollower} (with {@code ConfigApplier}), {@link UnitWatch}, {@code SystemdReachability},
 * {@link MachineWorker}, {@code DaemonFigures}, and {@code DaemonJournal}, which records what they
 * did and holds what they share.
 */
public final class NodeDaemon {
  /** Makes nodes for the daemon's operations. */
  @FunctionalInterface
  public interface Nodes {
    /**
     * A node bound to {@code config} (what it installs and applies) and {@code previous} (the
     * applied configuration a rollback restores).
     */
    Node node(Optional<AgentConfig> config, Optional<AgentConfig> previous);
  }

  /**
   * The cluster's API server as the daemon reaches it now: the clients are asked for at every tick,
   * so an implementation that rebuilds them when the node's credentials change (kubelet rotates
   * its client certificate) has the daemon watch through the new ones.
   */
  public interface Cluster {
    /** The node's Machine objects. */
    MachineResource machines();

    /** The node's Node object and its pods. */
    ClusterNode nodes();
  }

  /** What the daemon tells its service manager. */
  public interface Listener {
    /** Start-up recovery is done: the daemon watches the node. */
    void ready();

    /** A one-line status, e.g. what the daemon is doing now. */
    void status(String line);

    /** A listener that tells nobody. */
    Listener NONE = new Listener() {
      @Override
      public void ready() {}

      @Override
      public void status(String line) {}
    };
  }

  /**
   * How the daemon runs.
   *
   * @param configFile the desired configuration file it watches
   * @param pollInterval how often it reads the file and checks the stack's units
   * @param hostArch the host's architecture, which the configuration is validated for
   */
  public record Options(Path configFile, Duration pollInterval, String hostArch) {
    public Options {
      Objects.requireNonNull(configFile, "configFile");
      Objects.requireNonNull(pollInterval, "pollInterval");
      Objects.requireNonNull(hostArch, "hostArch");
      if (pollInterval.isNegative() || pollInterval.isZero()) {
        throw new IllegalArgumentException("the poll interval must be positive: " + pollInterval);
      }
    }
  }

  private static final Duration SLICE = Duration.ofMillis(200);

  private final HostPorts ports;
  private final HostPaths paths;
  private final Nodes nodes;
  private final Options settings;
  private final Listener listener;
  private final Logger log;
  private final DaemonJournal journal;
  private final StartRecovery startRecovery;
  private final ConfigFileFollower configFile;
  private final AtomicBoolean wake = new AtomicBoolean();
  private final UnitWatch units;
  private final SystemdReachability systemd;
  private final DaemonFigures figures;
  private volatile Instant heartbeat;
  private Optional<MachineWorker> machine = Optional.empty();

  public NodeDaemon(
      HostPorts ports,
      Layout layout,
      HostPaths paths,
      Nodes nodes,
      Options settings,
      Listener listener,
      Logger log) {
    this.ports = Objects.requireNonNull(ports, "ports");
    Objects.requireNonNull(layout, "layout");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.nodes = Objects.requireNonNull(nodes, "nodes");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.log = Objects.requireNonNull(log, "log");
    this.journal = new DaemonJournal(ports, paths, log);
    this.startRecovery =
        new StartRecovery(ports, layout, paths, nodes::node, settings.configFile(), log, journal);
    this.configFile = new ConfigFileFollower(
        ports,
        paths,
        settings.configFile(),
        settings.hostArch(),
        log,
        journal,
        new ConfigApplier(
            ports,
            paths,
            nodes::node,
            settings.configFile(),
            settings.pollInterval(),
            listener::status,
            log,
            journal));
    this.units = new UnitWatch(ports.systemd(), HostPaths.STACK_UNITS, log, () -> wake.set(true));
    this.figures = new DaemonFigures(
        ports, layout, units, () -> machine.flatMap(MachineWorker::repaveCounters), log, journal);
    this.systemd = new SystemdReachability(ports, log);
    this.heartbeat = ports.clock().now();
  }

  /**
   * Has this daemon report its figures and operations to {@code metrics}. Called before {@link
   * #start()}.
   *
   * @return this daemon
   */
  public NodeDaemon reportTo(AgentMetrics metrics) {
    journal.reportTo(Objects.requireNonNull(metrics, "metrics"));
    return this;
  }

  /**
   * The listener for the events of the nodes this daemon is given: it counts the bytes their
   * downloads receive (verified unless a download reports it was installed unverified) and times
   * their switch-overs (the stack stopped until it started again on the other version, for an
   * upgrade and for a rollback).
   */
  public NodeEvents nodeEvents() {
    return journal.tally();
  }

  /**
   * Has this daemon follow the node's Machine through {@code cluster} as well, the repave's waits
   * bounded by {@code timeouts}, its API work on a thread of the daemon's own (ended by {@link
   * #stop}). Called before {@link #start()}.
   *
   * @return this daemon
   */
  public NodeDaemon followMachine(Cluster cluster, RepaveOptions timeouts) {
    machine = Optional.of(MachineWorker.onItsOwnThread(follower(cluster, timeouts), log));
    journal.sendEventsTo(eventsTo(cluster, EVENT_SENDER));
    return this;
  }

  /** Sends Events one after the other on a daemon thread of its own, started when first needed. */
  private static final Executor EVENT_SENDER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "noneops-events");
    t.setDaemon(true);
    return t;
  });

  private DaemonEvents eventsTo(Cluster cluster, Executor executor) {
    return new DaemonEvents(
        new ClusterEventSink(cluster::nodes, ports.clock(), log, executor), ports, paths);
  }

  /**
   * As {@link #followMachine(Cluster, RepaveOptions)}, the API work run by {@code executor}
   * instead: {@code Runnable::run} has each tick run it on the caller's thread, one step after
   * the other. The daemon's Events are sent through {@code executor} as well (with {@code
   * Runnable::run}, at once, on the caller's thread).
   *
   * @return this daemon
   */
  public NodeDaemon followMachine(Cluster cluster, RepaveOptions timeouts, Executor executor) {
    machine = Optional.of(MachineWorker.on(
        Objects.requireNonNull(executor, "executor"), follower(cluster, timeouts), log));
    journal.sendEventsTo(eventsTo(cluster, executor));
    return this;
  }

  private MachineFollower follower(Cluster cluster, RepaveOptions timeouts) {
    return new MachineFollower(
        ports,
        paths,
        nodes,
        Objects.requireNonNull(cluster, "cluster"),
        Objects.requireNonNull(timeouts, "timeouts"),
        settings.hostArch(),
        log,
        journal::recordUntimed);
  }

  /**
   * Recovers, subscribes to the stack's units' changes, records that it watches the file, reports
   * ready, then has the Machine registered and watched (when it follows one).
   */
  public void start() {
    Instant now = ports.clock().now();
    AgentState.Event recovery = startRecovery.atStart();
    Optional<String> handled = configFile.resume();
    journal.update(s -> s.withStartRecovery(recovery)
        .withWatching(new AgentState.Watch(settings.configFile().toString(), now, handled)));
    journal.ended(recovery, true);
    journal.events(e -> {
      e.after(recovery);
      journal
          .read()
          .bootRecovery()
          .filter(boot -> startRecovery.gateRanThisBoot())
          .ifPresent(boot -> e.after(
              new AgentState.Event(boot.at(), "boot-recovery", boot.outcome(), boot.detail())));
    });
    units.start();
    listener.ready();
    listener.status("watching " + settings.configFile());
    // after READY=1: an API server that is slow to answer never holds up the service's start
    machine.ifPresent(m -> journal.whileOperating(() -> m.start(journal.read())));
    heartbeat = ports.clock().now();
    figures.publish();
  }

  /**
   * Ends the daemon's watches: the units' subscription, then the Machine's work, waiting up to
   * {@code grace} for an operation of it under way.
   */
  public void stop(Duration grace) throws InterruptedException {
    units.close();
    if (machine.isPresent()) {
      machine.get().stop(grace);
    }
  }

  /**
   * Runs until {@code stopRequested}: {@link #start()}, then a {@link #tick()} every poll
   * interval, or at once when a unit's failure was signalled. A stop request is seen between
   * ticks, and within a tick only between operations: an operation under way is finished (each
   * of its steps is one a crash can interrupt safely, so a service manager that loses patience
   * loses nothing); the Machine's operation under way is waited for up to {@code stopGrace}.
   */
  public void run(BooleanSupplier stopRequested, Duration stopGrace) throws InterruptedException {
    Objects.requireNonNull(stopGrace, "stopGrace");
    start();
    while (!stopRequested.getAsBoolean()) {
      tick();
      Duration slept = Duration.ZERO;
      while (slept.compareTo(settings.pollInterval()) < 0
          && !stopRequested.getAsBoolean()
          && !wake.get()) {
        ports.clock().sleep(SLICE);
        slept = slept.plus(SLICE);
        heartbeat = ports.clock().now();
        if (configFile.changedAndSettled()) {
          break;
        }
      }
    }
    stop(stopGrace);
    log.info("stopping: no operation in progress");
  }

  /** {@link #run(BooleanSupplier, Duration)}, waiting for the Machine's operation as it takes. */
  public void run(BooleanSupplier stopRequested) throws InterruptedException {
    run(stopRequested, Duration.ofDays(1));
  }

  /**
   * One pass: the configuration file, a pass of the Machine's work started (when none is under
   * way), then the stack's units when they are polled.
   */
  public void tick() {
    wake.set(false);
    heartbeat = ports.clock().now();
    if (!systemd.reachable()) {
      heartbeat = ports.clock().now();
      return;
    }
    if (!startRecovery.abandonedUpgrade()) {
      configFile.follow();
      machine.ifPresent(m -> journal.whileOperating(m::tick));
    }
    units.poll();
    heartbeat = ports.clock().now();
    figures.ticked(heartbeat);
    figures.publish();
  }

  /** The daemon's figures now: what it recorded, the layout's versions and the units' states. */
  public AgentFigures figures() {
    return figures.now();
  }

  /**
   * Whether the daemon is alive for a watchdog: it reached systemd at its last tick, and its loop
   * moved within {@code within} or it is in an operation (whose every wait has its own timeout).
   * A daemon that cannot reach systemd is not alive: should systemd stay unreachable for the
   * watchdog's interval, systemd restarts the daemon.
   */
  public boolean alive(Duration within) {
    return systemd.unreachableSince().isEmpty()
        && (journal.operating()
            || Duration.between(heartbeat, ports.clock().now()).compareTo(within) <= 0);
  }

  /**
   * Since when the daemon cannot reach systemd (a call failed at each tick since); empty while
   * it can.
   */
  public Optional<Instant> systemdUnreachableSince() {
    return systemd.unreachableSince();
  }

  /** What the daemon has recorded. */
  public AgentState state() {
    return journal.read();
  }
}
