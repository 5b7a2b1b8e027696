package dev.noneops.daemon.internal;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.machine.MachineEvent;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineWatch;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * The daemon's side of the node's Machine: once the applied configuration names a Machine and an
 * API server, it registers the Machine ({@link MachineRegistration}), watches it, and runs a pass
 * of the {@link RepaveReconciler} when an event arrived, at the daemon's next tick — on the
 * {@link MachineWorker}'s thread, so an API server that does not answer holds up nothing else; a
 * repave and the configuration file's changes still never run at once, both taking the node lock
 * (a busy node is tried again). The first pass after
 * the daemon started is {@link RepaveReconciler#reconcileAfterRecovery}. A cluster without the
 * Machine CRD is one error in the journal, and the daemon goes on with its other duties without
 * the Machine; any other failed call is tried again after {@link #RETRY}. When the cluster's
 * clients change (kubelet rotated its credentials), the watch is started again through the new
 * ones.
 */
public final class MachineFollower {
  /** How long a failed call to the API server waits before it is tried again. */
  public static final Duration RETRY = Duration.ofSeconds(30);

  private volatile long[] repaveCounters;
  private final HostPorts ports;
  private final HostPaths paths;
  private final NodeDaemon.Nodes nodes;
  private final NodeDaemon.Cluster cluster;
  private final RepaveOptions timeouts;
  private final String hostArch;
  private final Logger log;
  private final Consumer<AgentState.Event> record;
  private final AtomicBoolean changed = new AtomicBoolean();
  private MachineResource watchedThrough;
  private MachineWatch watch;
  private volatile boolean watching;
  private String machineName = "";
  private String nodeName = "";
  private boolean withoutCrd;
  private List<AgentState.Event> recoveries = List.of();
  private boolean afterStart = true;
  private Instant retryAt = Instant.MIN;

  public MachineFollower(
      HostPorts ports,
      HostPaths paths,
      NodeDaemon.Nodes nodes,
      NodeDaemon.Cluster cluster,
      RepaveOptions timeouts,
      String hostArch,
      Logger log,
      Consumer<AgentState.Event> record) {
    this.ports = ports;
    this.paths = paths;
    this.nodes = nodes;
    this.cluster = cluster;
    this.timeouts = timeouts;
    this.hostArch = hostArch;
    this.log = log;
    this.record = record;
  }

  /** At the daemon's start, after its recovery: registers and starts the watch. */
  public synchronized void start(AgentState afterRecovery) {
    remember(afterRecovery);
    connect();
  }

  /**
   * At the daemon's start, when no Machine is followed yet: keeps the recoveries for the first
   * pass, should the applied configuration name a Machine later.
   */
  public synchronized void remember(AgentState afterRecovery) {
    List<AgentState.Event> events = new ArrayList<>();
    afterRecovery.startRecovery().ifPresent(events::add);
    afterRecovery.bootRecovery().ifPresent(events::add);
    recoveries = List.copyOf(events);
  }

  /**
   * Whether the follower has work: it watches a Machine, or the applied configuration names one
   * and an API server (read from the file, as {@link #tick} does). Without, the daemon hands it
   * nothing, and its worker's thread is never started.
   */
  public boolean wanted() {
    if (watching) {
      return true;
    }
    try {
      return names(new AppliedConfigStore(ports.files(), paths).read());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static boolean names(Optional<AgentConfig> applied) {
    return applied.isPresent()
        && !applied.get().machineName().trim().isEmpty()
        && !applied.get().kubelet().apiServer().isEmpty();
  }

  /** One tick: (re)connects when needed, and runs a pass when the Machine changed. */
  public synchronized void tick() {
    if (withoutCrd || ports.clock().now().isBefore(retryAt)) {
      return;
    }
    if (!connect()) {
      return;
    }
    if (!changed.getAndSet(false)) {
      return;
    }
    RepaveReconciler reconciler = new RepaveReconciler(
        ports,
        paths,
        nodes,
        watchedThrough,
        machineName,
        hostArch,
        cluster.nodes(),
        nodeName,
        timeouts);
    try {
      RepaveReconciler.Outcome outcome =
          afterStart ? reconciler.reconcileAfterRecovery(recoveries) : reconciler.reconcile();
      afterStart = false;
      switch (outcome) {
        case BUSY -> changed.set(true);
        case NO_MACHINE, NOTHING_TO_DO -> {}
        default -> {
          String detail = reconciler.lastReport();
          log.atInfo()
              .addKeyValue("operation", "repave")
              .addKeyValue("outcome", outcomeLabel(outcome))
              .log("Machine {}: repave {}: {}", machineName, outcome, detail);
          record.accept(
              new AgentState.Event(ports.clock().now(), "repave", outcome.name(), detail));
        }
      }
    } catch (MachineCallException | ClusterCallException e) {
      log.warn(
          "Machine {}: {}; trying again in {}",
          machineName,
          UrlRedaction.redact(e.getMessage()),
          RETRY);
      changed.set(true);
      retryAt = ports.clock().now().plus(RETRY);
    } catch (RuntimeException e) {
      // the daemon's other duties go on; the repave is tried again, as after a failed call
      log.error(
          "Machine {}: the repave pass failed: {}; trying again in {}",
          machineName,
          UrlRedaction.redact(e.toString()),
          RETRY);
      changed.set(true);
      retryAt = ports.clock().now().plus(RETRY);
    }
  }

  /**
   * The Machine's repave counters as last seen: {@code spec.operations.repaveCounter} (asked)
   * and {@code status.operations.repaveCounter} (acknowledged); empty before the first event.
   */
  public Optional<long[]> repaveCounters() {
    long[] seen = repaveCounters;
    return seen == null ? Optional.empty() : Optional.of(seen.clone());
  }

  /** A repave's outcome as the metrics and the journal name it. */
  private static String outcomeLabel(RepaveReconciler.Outcome outcome) {
    return switch (outcome) {
      case REPAVED -> "applied";
      case ROLLED_BACK -> "rolled-back";
      case INVALID_SPEC, DRAIN_BLOCKED -> "refused";
      default -> "failed";
    };
  }

  /** Stops the watch. */
  public synchronized void close() {
    if (watch != null) {
      watch.close();
      watch = null;
    }
    watching = false;
  }

  /** @return whether the watch runs through the cluster's current clients */
  private boolean connect() {
    Optional<AgentConfig> applied;
    try {
      applied = new AppliedConfigStore(ports.files(), paths).read();
    } catch (IOException | RuntimeException e) {
      return false;
    }
    if (!names(applied)) {
      return false;
    }
    MachineResource current = cluster.machines();
    if (watch != null && current == watchedThrough) {
      return true;
    }
    close();
    machineName = applied.get().machineName().trim();
    try {
      nodeName = ports.facts().read().hostname();
      MachineRegistration.Outcome registered =
          new MachineRegistration(current).register(applied.get());
      if (registered == MachineRegistration.Outcome.CREATED) {
        log.info("registered Machine {}", machineName);
      }
      watch = current.watch(machineName, event -> {
        if (event.kind() != MachineEvent.Kind.DELETED) {
          repaveCounters = new long[] {
            event.machine().spec().operations().repaveCounter(),
            event.machine().status().operations().repaveCounter()
          };
        }
        // only an event that asks for work wakes the next tick: the status writes of a pass do
        // not cost a read each
        if (event.kind() != MachineEvent.Kind.DELETED
            && event.machine().spec().operations().repaveCounter()
                > event.machine().status().operations().repaveCounter()) {
          changed.set(true);
        }
      });
      watchedThrough = current;
      watching = true;
      changed.set(true);
      return true;
    } catch (MachineCallException e) {
      if (MachineResourceException.hasKind(
          e, MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE)) {
        log.error(
            "{}; the agent follows its configuration file without the Machine", e.getMessage());
        withoutCrd = true;
      } else {
        log.warn("{}; trying again in {}", UrlRedaction.redact(e.getMessage()), RETRY);
        retryAt = ports.clock().now().plus(RETRY);
      }
      return false;
    } catch (IOException | IllegalArgumentException e) {
      log.warn(
          "cannot watch Machine {}: {}; trying again in {}",
          machineName,
          UrlRedaction.redact(e.getMessage()),
          RETRY);
      retryAt = ports.clock().now().plus(RETRY);
      return false;
    }
  }
}
