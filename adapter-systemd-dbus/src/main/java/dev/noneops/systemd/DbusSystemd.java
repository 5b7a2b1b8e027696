package dev.noneops.systemd;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.internal.dbus.EnableUnitFilesResult;
import dev.noneops.systemd.internal.dbus.SystemdManager;
import dev.noneops.systemd.internal.dbus.SystemdManager.JobRemoved;
import dev.noneops.systemd.internal.dbus.UnitFileChange;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.IDisconnectCallback;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusSigHandler;
import org.freedesktop.dbus.interfaces.Properties.PropertiesChanged;
import org.freedesktop.dbus.matchrules.DBusMatchRule;
import org.freedesktop.dbus.matchrules.DBusMatchRuleBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Systemd} port over systemd's D-Bus API (dbus-java, native unix socket).
 *
 * <p>Each adapter owns one unshared connection, opened by {@link #connectSystemBus()} or {@link
 * #connect(String)} and closed by {@link #close()}. On opening it registers a {@code JobRemoved}
 * handler and then calls {@code Subscribe}, the order systemd documents as race-free; every job
 * method then enqueues its job in {@code replace} mode and waits for the signal carrying the job
 * path systemd returned (see {@link JobTracker}). Signal handlers never block: they hand results
 * over and return. {@link #awaitState} and {@link #watch} are driven by {@code PropertiesChanged}
 * on the units' objects.
 *
 * <p>A connection that breaks (the system bus restarted) fails the jobs waited for and every call
 * until the adapter has reconnected on its own: it tries again after 100 ms, doubling the wait up
 * to 5 s ({@link ReconnectBackoff}), subscribes again, and moves every open watch to the new
 * connection, which tells it of the changes it missed.
 */
public final class DbusSystemd implements Systemd, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DbusSystemd.class);
  private static final String MODE_REPLACE = "replace";
  /** Re-read interval of {@link #awaitState} should a {@code PropertiesChanged} signal be missed. */
  private static final Duration STATE_RECHECK = Duration.ofSeconds(1);

  private final String address;
  private final MachineIdLocator machineIds;
  private final JobTracker jobs = new JobTracker();
  private final Object closeLock = new Object();
  private final Set<UnitStateWatch> watches = ConcurrentHashMap.newKeySet();
  /** The working session; {@code null} from the moment its connection broke until one is back. */
  private volatile BusSession bus;

  private volatile Instant brokeAt;
  private Thread reconnector;
  private boolean closed;

  private DbusSystemd(String address, MachineIdLocator machineIds) {
    this.address = address;
    this.machineIds = machineIds;
    this.bus = openSession();
  }

  private BusSession openSession() {
    BusSession[] opened = new BusSession[1];
    BusSession session = BusSession.open(
        address, machineIds, new ForwardJobRemoved(), new OnDisconnect(() -> opened[0]));
    opened[0] = session;
    return session;
  }

  /** Connects to the system bus: {@code $DBUS_SYSTEM_BUS_ADDRESS}, else {@code /run/dbus/system_bus_socket}. */
  public static DbusSystemd connectSystemBus() {
    return connect(BusConnector.systemBusAddress(System.getenv()));
  }

  /**
   * Connects to the bus at {@code address}, which must be {@code unix:path=<absolute path>}, e.g.
   * {@code unix:path=/proc/4242/root/run/dbus/system_bus_socket} for a sandboxed systemd.
   *
   * @throws IllegalArgumentException when the address is not a {@code unix:path=} address
   * @throws SystemdException of kind {@link Kind#UNREACHABLE} when the bus cannot be reached, no
   *     machine id exists, or systemd does not answer on it
   */
  public static DbusSystemd connect(String address) {
    return connect(address, MachineIdLocator.forThisProcess());
  }

  static DbusSystemd connect(String address, MachineIdLocator machineIds) {
    return new DbusSystemd(BusConnector.requireUnixPathAddress(address), machineIds);
  }

  /** The bus address this adapter is connected to. */
  public String address() {
    return address;
  }

  @Override
  public void daemonReload() {
    call("daemon-reload", "", () -> {
      bus().manager().Reload();
      return null;
    });
  }

  @Override
  public JobResult start(String unit, Duration timeout) {
    return runJob("start", unit, timeout, (manager, name) -> manager.StartUnit(name, MODE_REPLACE));
  }

  @Override
  public JobResult stop(String unit, Duration timeout) {
    return runJob("stop", unit, timeout, (manager, name) -> manager.StopUnit(name, MODE_REPLACE));
  }

  @Override
  public JobResult restart(String unit, Duration timeout) {
    return runJob(
        "restart", unit, timeout, (manager, name) -> manager.RestartUnit(name, MODE_REPLACE));
  }

  /** {@inheritDoc} All the jobs are enqueued first, then each is awaited within one deadline. */
  @Override
  public List<JobResult> startAll(List<String> units, Duration timeout) {
    return runJobs(
        "start", units, timeout, (manager, name) -> manager.StartUnit(name, MODE_REPLACE));
  }

  /** {@inheritDoc} All the jobs are enqueued first, then each is awaited within one deadline. */
  @Override
  public List<JobResult> stopAll(List<String> units, Duration timeout) {
    return runJobs("stop", units, timeout, (manager, name) -> manager.StopUnit(name, MODE_REPLACE));
  }

  @Override
  public ManagerState manager() {
    return bus().states().manager();
  }

  @Override
  public UnitStatus status(String unit) {
    UnitNames.requireUnitName(unit);
    return bus().states().read(unit, loadUnit(unit));
  }

  @Override
  public UnitStatus awaitState(String unit, Set<ActiveState> wanted, Duration timeout) {
    UnitNames.requireUnitName(unit);
    Objects.requireNonNull(wanted, "wanted");
    if (wanted.isEmpty()) {
      throw new IllegalArgumentException("awaitState needs at least one wanted state for " + unit);
    }
    Deadline deadline = Deadline.after(timeout);
    DBusPath unitPath = loadUnit(unit);
    Semaphore changed = new Semaphore(0);
    AutoCloseable registration = watchProperties(unit, unitPath, signal -> changed.release());
    try {
      while (true) {
        UnitStatus current = bus().states().read(unit, unitPath);
        if (wanted.contains(current.active()) || deadline.passed()) {
          return current;
        }
        long slice = Math.min(deadline.remainingNanos(), STATE_RECHECK.toNanos());
        if (changed.tryAcquire(slice, TimeUnit.NANOSECONDS)) {
          changed.drainPermits();
        }
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new SystemdException(
          Kind.OTHER, unit, "interrupted while waiting for the state of " + unit, interrupted);
    } finally {
      unregister(registration);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Driven by {@code PropertiesChanged} of the units' objects, which the connection's {@code
   * Subscribe()} has systemd send (see {@link UnitStateWatch}); the consumer is called on the
   * watch's own thread.
   */
  @Override
  public Subscription watch(Set<String> units, Consumer<UnitStatus> onChange) {
    Objects.requireNonNull(units, "units");
    Objects.requireNonNull(onChange, "onChange");
    UnitStateWatch watch =
        UnitStateWatch.start(bus().connection(), Set.copyOf(units), this::status, onChange);
    watches.add(watch);
    return () -> {
      watches.remove(watch);
      watch.close();
    };
  }

  /** Registers {@code wake} for {@code PropertiesChanged} of the unit object; it must not block. */
  private AutoCloseable watchProperties(
      String unit, DBusPath unitPath, DBusSigHandler<PropertiesChanged> wake) {
    try {
      DBusMatchRule rule = DBusMatchRuleBuilder.create()
          .withType(PropertiesChanged.class)
          .withPath(unitPath.getPath())
          .build();
      return bus().connection().addSigHandler(rule, wake);
    } catch (DBusException failure) {
      throw SystemdErrors.fromSetup("watch the state of", unit, failure);
    }
  }

  private void unregister(AutoCloseable registration) {
    try {
      registration.close();
    } catch (Exception failure) {
      LOG.debug("removing a PropertiesChanged handler on {} failed", address, failure);
    }
  }

  @Override
  public void enable(List<String> units) {
    List<String> files = requireUnitFiles(units);
    if (files.isEmpty()) {
      return;
    }
    EnableUnitFilesResult<Boolean, List<UnitFileChange>> result = call(
        "enable",
        String.join(" ", files),
        () -> bus().manager().EnableUnitFiles(files, false, false));
    if (!result.changes().isEmpty()) {
      daemonReload();
    }
  }

  @Override
  public void disable(List<String> units) {
    List<String> files = requireUnitFiles(units);
    if (files.isEmpty()) {
      return;
    }
    List<UnitFileChange> changes = call(
        "disable", String.join(" ", files), () -> bus().manager().DisableUnitFiles(files, false));
    if (!changes.isEmpty()) {
      daemonReload();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>systemd answers {@code NoSuchUnit} for a unit that has a unit file but is not loaded at the
   * moment (it unloads inactive units it has no use for); such a unit has no failed state, so that
   * is a successful no-op here. Only a unit without a unit file is {@link Kind#NO_SUCH_UNIT}.
   */
  @Override
  public void resetFailed(String unit) {
    UnitNames.requireUnitName(unit);
    try {
      call("reset-failed", unit, () -> {
        bus().manager().ResetFailedUnit(unit);
        return null;
      });
    } catch (SystemdException notLoaded) {
      rethrowUnlessUnloadedButKnown(notLoaded, unit);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A unit that has a unit file but is not loaded has no processes: signalling all of them is a
   * no-op (as systemd does for a loaded unit without processes), signalling its main process is
   * {@link Kind#OTHER}, as systemd's "No main process to kill".
   */
  @Override
  public void kill(String unit, boolean all, int signal) {
    UnitNames.requireUnitName(unit);
    if (signal <= 0 || signal > 64) {
      throw new IllegalArgumentException("not a signal number (1..64): " + signal + " for " + unit);
    }
    try {
      call("kill", unit, () -> {
        bus().manager().KillUnit(unit, all ? "all" : "main", signal);
        return null;
      });
    } catch (SystemdException notLoaded) {
      rethrowUnlessUnloadedButKnown(notLoaded, unit);
      if (!all) {
        throw new SystemdException(
            Kind.OTHER,
            unit,
            "systemd: kill " + unit + " failed: no main process to kill (the unit is not loaded)",
            notLoaded);
      }
    }
  }

  /** Rethrows {@code failure} unless it is {@code NoSuchUnit} for a unit that has a unit file. */
  private void rethrowUnlessUnloadedButKnown(SystemdException failure, String unit) {
    if (failure.kind() != Kind.NO_SUCH_UNIT || status(unit).load() == LoadState.NOT_FOUND) {
      throw failure;
    }
  }

  /**
   * Closes the connection and the watches; waiting callers fail with {@link Kind#UNREACHABLE}.
   * Idempotent.
   */
  @Override
  public void close() {
    BusSession open;
    Thread reconnecting;
    synchronized (closeLock) {
      if (closed) {
        return;
      }
      closed = true;
      open = bus;
      bus = null;
      reconnecting = reconnector;
    }
    if (reconnecting != null) {
      reconnecting.interrupt();
    }
    jobs.failAll(new SystemdException(
        Kind.UNREACHABLE, "", "systemd adapter for " + address + " is closed"));
    watches.forEach(UnitStateWatch::close);
    watches.clear();
    if (open != null) {
      open.close(address);
    }
  }

  /** The working session, or {@link Kind#UNREACHABLE} while the connection is broken. */
  private BusSession bus() {
    BusSession session = bus;
    if (session != null) {
      return session;
    }
    synchronized (closeLock) {
      if (closed) {
        throw new SystemdException(
            Kind.UNREACHABLE, "", "systemd adapter for " + address + " is closed");
      }
      throw new SystemdException(
          Kind.UNREACHABLE,
          "",
          "the D-Bus connection to " + address + " broke at " + brokeAt + "; reconnecting");
    }
  }

  /**
   * The connection of {@code broken} broke: waiting jobs fail {@link Kind#UNREACHABLE}, calls
   * fail so until a new session is open, and the reconnecting thread is started.
   */
  private void connectionBroke(BusSession broken, IOException cause) {
    synchronized (closeLock) {
      if (closed || broken == null || bus != broken) {
        return;
      }
      bus = null;
      brokeAt = Instant.now();
      LOG.warn(
          "the D-Bus connection to {} broke ({}); reconnecting",
          address,
          cause == null ? "not connected" : cause.getMessage());
      jobs.failAll(new SystemdException(
          Kind.UNREACHABLE,
          "",
          "D-Bus connection to " + address + " broke"
              + (cause == null ? "" : ": " + cause.getMessage()),
          cause));
      Thread thread = new Thread(() -> reconnect(broken), "systemd-bus-reconnect");
      thread.setDaemon(true);
      reconnector = thread;
      thread.start();
    }
    broken.close(address);
  }

  /** On the reconnecting thread: tries until a session is open and every watch moved to it. */
  private void reconnect(BusSession broken) {
    ReconnectBackoff backoff = new ReconnectBackoff();
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(backoff.next().toMillis());
      } catch (InterruptedException e) {
        return;
      }
      BusSession session;
      try {
        session = openSession();
      } catch (RuntimeException stillAway) {
        LOG.debug("reconnecting to D-Bus at {} failed", address, stillAway);
        continue;
      }
      synchronized (closeLock) {
        if (closed) {
          session.close(address);
          return;
        }
        jobs.reconnected();
        bus = session;
        reconnector = null;
      }
      // a warning, as the break was: an operator sees both by default
      LOG.warn(
          "reconnected to D-Bus at {} after {} ms",
          address,
          Duration.between(brokeAt, Instant.now()).toMillis());
      for (UnitStateWatch watch : watches) {
        try {
          watch.attach(session.connection());
        } catch (SystemdException failure) {
          LOG.warn("cannot watch the units again after reconnecting: {}", failure.getMessage());
        }
      }
      return;
    }
  }

  private JobResult runJob(
      String action,
      String unit,
      Duration timeout,
      BiFunction<SystemdManager, String, DBusPath> enqueue) {
    UnitNames.requireUnitName(unit);
    Deadline deadline = Deadline.after(timeout);
    DBusPath job = call(action, unit, () -> enqueue.apply(bus().manager(), unit));
    return awaitJob(action, unit, job, deadline);
  }

  private List<JobResult> runJobs(
      String action,
      List<String> units,
      Duration timeout,
      BiFunction<SystemdManager, String, DBusPath> enqueue) {
    List<String> names = List.copyOf(units);
    names.forEach(UnitNames::requireUnitName);
    Deadline deadline = Deadline.after(timeout);
    List<DBusPath> enqueued = new ArrayList<>();
    for (String unit : names) {
      enqueued.add(call(action, unit, () -> enqueue.apply(bus().manager(), unit)));
    }
    List<JobResult> results = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      results.add(awaitJob(action, names.get(i), enqueued.get(i), deadline));
    }
    return List.copyOf(results);
  }

  private JobResult awaitJob(String action, String unit, DBusPath job, Deadline deadline) {
    Optional<String> result;
    try {
      result = jobs.await(job.getPath(), deadline);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new SystemdException(
          Kind.OTHER,
          unit,
          "interrupted while waiting for the " + action + " job of " + unit,
          interrupted);
    } catch (SystemdException broken) {
      throw new SystemdException(
          broken.kind(), unit, action + " " + unit + ": " + broken.getMessage(), broken);
    }
    return result
        .map(systemdResult -> toJobResult(unit, systemdResult))
        .orElse(JobResult.WAIT_TIMEOUT);
  }

  private static JobResult toJobResult(String unit, String systemdResult) {
    try {
      return JobResult.fromSystemd(systemdResult);
    } catch (IllegalArgumentException unknown) {
      // systemd also reports "invalid", "assert", "unsupported", "collected", "once": none
      // succeeded.
      LOG.debug("job for {} ended with result {}, reported as failed", unit, systemdResult);
      return JobResult.FAILED;
    }
  }

  private DBusPath loadUnit(String unit) {
    return call("load", unit, () -> bus().manager().LoadUnit(unit));
  }

  private static List<String> requireUnitFiles(List<String> units) {
    Objects.requireNonNull(units, "units");
    return units.stream().map(UnitNames::requireUnitFile).toList();
  }

  private <T> T call(String action, String unit, Supplier<T> remoteCall) {
    BusSession session = bus;
    try {
      return remoteCall.get();
    } catch (RuntimeException failure) {
      SystemdException mapped = SystemdErrors.fromCall(action, unit, failure);
      if (session != null && !session.connection().isConnected()) {
        // a break dbus-java has not told of (yet): reconnect all the same
        connectionBroke(session, null);
      }
      throw mapped;
    }
  }

  /** Runs on dbus-java's signal thread: hands the result over and returns at once. */
  private final class ForwardJobRemoved implements DBusSigHandler<JobRemoved> {
    @Override
    public void handle(JobRemoved signal) {
      jobs.jobRemoved(signal.job().getPath(), signal.result());
    }
  }

  /** Tells the adapter that the connection of one session broke. */
  private final class OnDisconnect implements IDisconnectCallback {
    private final Supplier<BusSession> session;

    OnDisconnect(Supplier<BusSession> session) {
      this.session = session;
    }

    @Override
    public void disconnectOnError(IOException cause) {
      connectionBroke(session.get(), cause);
    }

    @Override
    public void exceptionOnTerminate(IOException cause) {
      disconnectOnError(cause);
    }
  }
}
