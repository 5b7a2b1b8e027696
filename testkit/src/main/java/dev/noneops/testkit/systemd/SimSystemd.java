package dev.noneops.testkit.systemd;

import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import dev.noneops.testkit.process.SimProcesses;
import dev.noneops.testkit.time.VirtualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The simulated systemd manager, implementing the {@link Systemd} port.
 *
 * <p>Unit files are read from the unit directories (the configured systemd directory first); a
 * unit is loaded when first referenced, and a loaded unit keeps its definition until
 * {@link #daemonReload()}, as systemd does. Honoured: {@code Requires=}/{@code BindsTo=} (when the
 * unit is also ordered after them, by its {@code After=} or their {@code Before=}, they are started
 * first and their failure fails the job with {@code dependency}; unordered, the unit starts first
 * and their failure does not touch it, one of the outcomes of systemd's parallel jobs; stopping
 * them stops the dependent, restarting them restarts an active dependent, as systemd's
 * {@code try-restart}; a main process that dies leaves the dependent running, as no
 * {@code Restart=} is simulated), {@code Wants=} (started first when ordered, failure ignored),
 * {@code ConditionPathExists=}, {@code ConditionPathExistsGlob=} and {@code
 * ConditionDirectoryNotEmpty=} (plain, negated with {@code !} and triggering with {@code |}, as
 * systemd combines them),
 * {@code ExecStart=} with {@code Environment=}/{@code EnvironmentFile=} expansion,
 * {@code Type=} (simple, exec, notify, forking, oneshot with {@code RemainAfterExit=}),
 * {@code KillMode=process}, and {@code [Install] WantedBy=}/{@code RequiredBy=} for enable and
 * disable. A started service gets a main process whose exe is its program with every symlink
 * resolved, in cgroup {@code /system.slice/<unit>}. {@code Restart=} policies are not simulated: a
 * main process that dies leaves the unit failed.
 *
 * <p>Errors are those of systemd as the D-Bus adapter reports them: a syntactically invalid unit
 * name or signal is an {@link IllegalArgumentException} before any call; disable removes the
 * install links named after each unit, even one whose file is gone, and is
 * {@link SystemdException.Kind#NO_SUCH_UNIT} only when a unit file is missing and no link was
 * removed; enabling fails as a whole when one file is missing; signalling all processes of a
 * unit that has none does nothing.
 *
 * <p>Tests script units with {@link #setBehaviour} and give programs a behaviour with
 * {@link #installProgram} (a program runs inside its unit's start job and may call back into the
 * host's ports); {@link #history()} lists what happened. {@link #loseBus()} and {@link
 * #regainBus()} model the system bus going away and coming back.
 */
public final class SimSystemd implements Systemd {
  private static final String PORT = "systemd";
  private static final int MAX_UNIT_NAME_LENGTH = 255;
  private static final Pattern UNIT_NAME = Pattern.compile(
      "[A-Za-z0-9:_.\\\\@-]+\\.(service|target|socket|mount|slice|scope|timer|path|device|swap|automount)");
  private static final int MAX_SIGNAL = 64;
  private static final Set<String> BUILTIN_TARGETS = Set.of(
      "basic.target",
      "default.target",
      "local-fs.target",
      "multi-user.target",
      "network.target",
      "network-online.target",
      "network-pre.target",
      "nss-lookup.target",
      "remote-fs.target",
      "sockets.target",
      "sysinit.target",
      "time-sync.target");
  private static final List<String> EXEC_SEARCH_PATH =
      List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");
  private static final Duration POLL = Duration.ofMillis(100);

  private final PortGate gate;
  private final SimFileSystem fs;
  private final SimProcesses processes;
  private final VirtualClock clock;
  private final Path systemdDir;
  private final List<Path> unitDirs;
  private final Map<String, Unit> units = new TreeMap<>();
  private final Map<String, UnitBehaviour> behaviours = new HashMap<>();
  private final Map<Path, SimProgram> programs = new HashMap<>();
  private ProgramRefusal programRefusal = argv -> Optional.empty();
  private final List<UnitEvent> history = new ArrayList<>();
  private final List<Watch> watches = new CopyOnWriteArrayList<>();
  private final List<Consumer<UnitEvent>> eventListeners = new CopyOnWriteArrayList<>();
  private long reloads;
  private Optional<Instant> busLostAt = Optional.empty();
  private ManagerState manager = new ManagerState("252", "running");

  /** One unit's runtime state. */
  private static final class Unit {
    final String name;
    UnitDefinition definition;
    ActiveState active = ActiveState.INACTIVE;
    Optional<Instant> activeEnteredAt = Optional.empty();
    String sub = "dead";
    long mainPid;
    String result = "success";
    Optional<Instant> failAt = Optional.empty();
    boolean stopping;
    /** A start job for this unit runs (its program may call back into the manager meanwhile). */
    boolean starting;

    Unit(String name, UnitDefinition definition) {
      this.name = name;
      this.definition = definition;
    }
  }

  /**
   * @param systemdDir the directory units are written to and enable links are created in
   * @param vendorDirs further unit directories, searched after {@code systemdDir}
   */
  public SimSystemd(
      PortGate gate,
      SimFileSystem fs,
      SimProcesses processes,
      VirtualClock clock,
      Path systemdDir,
      List<Path> vendorDirs) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.fs = Objects.requireNonNull(fs, "fs");
    this.processes = Objects.requireNonNull(processes, "processes");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.systemdDir = Objects.requireNonNull(systemdDir, "systemdDir");
    List<Path> dirs = new ArrayList<>();
    dirs.add(systemdDir);
    for (Path d : vendorDirs) {
      if (!dirs.contains(d)) {
        dirs.add(d);
      }
    }
    this.unitDirs = List.copyOf(dirs);
    processes.onExit(this::processExited);
  }

  /** A unit's state without loading it: a unit that is not loaded is inactive. */
  private ActiveState activeOf(String name) {
    Unit u = units.get(name);
    return u == null ? ActiveState.INACTIVE : u.active;
  }

  /** One call of the port through the gate; {@link SystemdException.Kind#UNREACHABLE} while the bus is lost. */
  private <T> T call(
      String method, boolean mutating, List<String> args, PortGate.IoAction<T> action) {
    return gate.callUnchecked(PORT, method, mutating, args, () -> {
      if (busLostAt.isPresent()) {
        throw new SystemdException(
            SystemdException.Kind.UNREACHABLE,
            args.isEmpty() ? "" : args.get(0),
            "systemd: the D-Bus connection broke at " + busLostAt.get()
                + " (the system bus went away) and is not back yet");
      }
      return action.run();
    });
  }

  // ---------------------------------------------------------------- the port

  @Override
  public void daemonReload() {
    call("daemonReload", true, List.of(), () -> {
      tick();
      reload();
      return null;
    });
  }

  @Override
  public JobResult start(String unit, Duration timeout) {
    requireName(unit);
    return call("start", true, PortGate.args(unit), () -> {
      tick();
      JobResult result = startUnit(unit, timeout, new HashMap<>(), true);
      collectGarbage();
      return result;
    });
  }

  @Override
  public JobResult stop(String unit, Duration timeout) {
    requireName(unit);
    return call("stop", true, PortGate.args(unit), () -> {
      tick();
      stopUnit(requireLoaded(unit));
      collectGarbage();
      return JobResult.DONE;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>One call: the units start in the order given, each after what it is ordered after and
   * wants (one of the orders systemd's side-by-side jobs may take). Every unit has one start job in
   * the request, as in one systemd transaction: a unit that failed earlier in it is not started
   * again for a unit that requires it, which then ends {@code dependency}.
   */
  @Override
  public List<JobResult> startAll(List<String> unitNames, Duration timeout) {
    List<String> names = List.copyOf(unitNames);
    names.forEach(SimSystemd::requireName);
    return call("startAll", true, names, () -> {
      tick();
      List<JobResult> results = new ArrayList<>();
      Map<String, JobResult> jobs = new HashMap<>();
      for (String unit : names) {
        results.add(startUnit(unit, timeout, jobs, true));
      }
      collectGarbage();
      return List.copyOf(results);
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>One call: the units stop in the order given (the caller lists a unit before what it is
   * ordered after, as systemd would stop them).
   */
  @Override
  public List<JobResult> stopAll(List<String> unitNames, Duration timeout) {
    List<String> names = List.copyOf(unitNames);
    names.forEach(SimSystemd::requireName);
    return call("stopAll", true, names, () -> {
      tick();
      List<JobResult> results = new ArrayList<>();
      for (String unit : names) {
        stopUnit(requireLoaded(unit));
        results.add(JobResult.DONE);
      }
      collectGarbage();
      return List.copyOf(results);
    });
  }

  @Override
  public JobResult restart(String unit, Duration timeout) {
    requireName(unit);
    return call("restart", true, PortGate.args(unit), () -> {
      tick();
      Unit u = requireLoaded(unit);
      List<Unit> dependents = activeDependentsRequiring(u.name);
      for (Unit d : dependents) {
        stopUnit(d);
      }
      stopUnit(u);
      JobResult result = startUnit(u.name, timeout, new HashMap<>(), true);
      for (Unit d : dependents) {
        startUnit(d.name, timeout, new HashMap<>(), false);
      }
      collectGarbage();
      return result;
    });
  }

  @Override
  public ManagerState manager() {
    return call("manager", false, List.of(), () -> manager);
  }

  /** What {@link #manager()} reports: systemd 252, running, unless a test sets otherwise. */
  public void setManager(ManagerState state) {
    synchronized (gate.monitor()) {
      this.manager = Objects.requireNonNull(state, "state");
    }
  }

  @Override
  public UnitStatus status(String unit) {
    requireName(unit);
    return call("status", false, PortGate.args(unit), () -> {
      tick();
      UnitStatus status = statusOf(unit);
      collectGarbage();
      return status;
    });
  }

  @Override
  public UnitStatus awaitState(String unit, Set<ActiveState> wanted, Duration timeout) {
    String name = requireName(unit);
    Objects.requireNonNull(wanted, "wanted");
    if (wanted.isEmpty()) {
      throw new IllegalArgumentException("awaitState needs at least one wanted state for " + unit);
    }
    return call("awaitState", false, PortGate.args(unit, new TreeSet<>(wanted), timeout), () -> {
      Instant deadline = clock.now().plus(timeout);
      while (true) {
        tick();
        UnitStatus s = statusOf(name);
        Instant now = clock.now();
        if (wanted.contains(s.active()) || !now.isBefore(deadline)) {
          return s;
        }
        Duration left = Duration.between(now, deadline);
        clock.advance(left.compareTo(POLL) < 0 ? left : POLL);
      }
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here the consumer is called on the thread that changed the state, as the change is made
   * (the status's other fields as they are at that moment).
   */
  @Override
  public Subscription watch(Set<String> unitNames, Consumer<UnitStatus> onChange) {
    Set<String> names = new TreeSet<>();
    for (String unit : Objects.requireNonNull(unitNames, "units")) {
      names.add(requireName(unit));
    }
    Objects.requireNonNull(onChange, "onChange");
    return call("watch", false, PortGate.args(String.join(" ", names)), () -> {
      Watch watch = new Watch(Set.copyOf(names), onChange);
      for (String name : names) {
        watch.told().put(name, activeOf(name));
      }
      watches.add(watch);
      return (Subscription) () -> watches.remove(watch);
    });
  }

  /** A subscription of {@link #watch}, with the state it last told of each unit. */
  private record Watch(
      Set<String> units, Consumer<UnitStatus> onChange, Map<String, ActiveState> told) {
    Watch(Set<String> units, Consumer<UnitStatus> onChange) {
      this(units, onChange, new HashMap<>());
    }

    void tell(UnitStatus status) {
      if (told.put(status.unit(), status.active()) != status.active()) {
        onChange.accept(status);
      }
    }
  }

  @Override
  public void enable(List<String> unitNames) {
    List<String> files = requireUnitFiles(unitNames);
    if (files.isEmpty()) {
      return;
    }
    call("enable", true, PortGate.args(String.join(" ", files)), () -> {
      // systemd finds every unit file before it links any: one missing file enables none
      List<UnitDefinition> found = new ArrayList<>();
      for (String file : files) {
        String unit = unitOfFile(file);
        found.add(readDefinition(unit).orElseThrow(() -> noSuchUnitFile(file)));
      }
      boolean linked = false;
      for (UnitDefinition d : found) {
        for (String target : d.wantedBy()) {
          linked |= linkInstall(target + ".wants", d);
        }
        for (String target : d.requiredBy()) {
          linked |= linkInstall(target + ".requires", d);
        }
      }
      if (linked) {
        reload();
      }
      return null;
    });
  }

  @Override
  public void disable(List<String> unitNames) {
    List<String> names = requireUnitFiles(unitNames);
    if (names.isEmpty()) {
      return;
    }
    call("disable", true, PortGate.args(String.join(" ", names)), () -> {
      for (String unit : names) {
        if (unit.startsWith("/")) {
          // DisableUnitFiles takes unit names only (systemctl passes the file name of a path)
          throw new SystemdException(
              SystemdException.Kind.OTHER,
              unit,
              "Invalid argument: " + unit + " is not a unit name.");
        }
      }
      // as systemd: links named after each unit go whether or not its file exists; the call fails
      // with "does not exist" only when a unit file is missing and nothing at all was unlinked
      List<String> missing = new ArrayList<>();
      boolean unlinked = false;
      for (String unit : names) {
        unlinked |= unlinkInstall(unit);
        if (readDefinition(unit).isEmpty()) {
          missing.add(unit);
        }
      }
      if (!missing.isEmpty() && !unlinked) {
        throw noSuchUnitFile(missing.get(0));
      }
      if (unlinked) {
        reload();
      }
      return null;
    });
  }

  /** Removes the {@code *.wants}/{@code *.requires} links named {@code unit}; whether there were any. */
  private boolean unlinkInstall(String unit) throws IOException {
    boolean unlinked = false;
    for (String dir : fs.list(systemdDir)) {
      if (dir.endsWith(".wants") || dir.endsWith(".requires")) {
        Path link = systemdDir.resolve(dir).resolve(unit);
        Optional<FileMeta> meta = fs.lstat(link);
        if (meta.isPresent() && meta.get().isSymlink()) {
          fs.unlink(link);
          fs.fsync(systemdDir.resolve(dir));
          unlinked = true;
        }
      }
    }
    return unlinked;
  }

  @Override
  public void resetFailed(String unit) {
    requireName(unit);
    call("resetFailed", true, PortGate.args(unit), () -> {
      tick();
      Unit u = requireLoaded(unit);
      if (u.active == ActiveState.FAILED) {
        setActive(u, ActiveState.INACTIVE);
        u.sub = "dead";
        event(u.name, "reset-failed");
      }
      u.result = "success";
      collectGarbage();
      return null;
    });
  }

  @Override
  public void kill(String unit, boolean all, int signal) {
    requireName(unit);
    if (signal <= 0 || signal > MAX_SIGNAL) {
      throw new IllegalArgumentException(
          "not a signal number (1.." + MAX_SIGNAL + "): " + signal + " for " + unit);
    }
    call("kill", true, PortGate.args(unit, all ? "all" : "main", signal), () -> {
      tick();
      Unit u = requireLoaded(unit);
      List<Long> targets = new ArrayList<>();
      if (all) {
        // systemd signals whatever the unit's cgroup holds, and nothing is no error
        targets.addAll(processesOf(u));
      } else if (u.mainPid != 0) {
        targets.add(u.mainPid);
      } else {
        throw new SystemdException(
            SystemdException.Kind.OTHER, u.name, "No main process to kill for " + u.name);
      }
      for (long pid : targets) {
        processes.signal(pid, signal);
      }
      return null;
    });
  }

  // ---------------------------------------------------------------- test controls (not journaled)

  /**
   * Why a program started by a unit exits at once, given its argv (empty: it runs); the host
   * wires the programs whose start-up checks the simulation models, such as kubelet's
   * {@code --protect-kernel-defaults}.
   */
  public void setProgramRefusal(ProgramRefusal refusal) {
    synchronized (gate.monitor()) {
      this.programRefusal = Objects.requireNonNull(refusal, "refusal");
    }
  }

  /** A program's start-up check: why it exits at once, or empty when it runs. */
  @FunctionalInterface
  public interface ProgramRefusal {
    Optional<String> why(List<String> argv);
  }

  /** Scripts how {@code unit} reacts to its next starts (kept across crashes). */
  public void setBehaviour(String unit, UnitBehaviour behaviour) {
    synchronized (gate.monitor()) {
      behaviours.put(requireName(unit), Objects.requireNonNull(behaviour, "behaviour"));
    }
  }

  /**
   * Gives the executable at {@code exe} a behaviour: a unit whose {@code ExecStart=} runs it (by
   * that path, or by a path or link that resolves to it) runs {@code program} inside its start job
   * (see {@link SimProgram}). The file must be there, executable, when a unit runs it; programs are
   * kept across crashes.
   */
  public void installProgram(Path exe, SimProgram program) {
    Objects.requireNonNull(exe, "exe");
    Objects.requireNonNull(program, "program");
    if (!exe.isAbsolute()) {
      throw new IllegalArgumentException("a program is installed at an absolute path: " + exe);
    }
    synchronized (gate.monitor()) {
      programs.put(exe.normalize(), program);
    }
  }

  /**
   * Tells {@code listener} of every later {@link UnitEvent} as it happens, on the thread that made
   * it: what a program outside the manager sees of a unit (a kubelet's process registering its
   * Node when it starts). Not a request to systemd: no port call is recorded.
   */
  public void onEvent(Consumer<UnitEvent> listener) {
    eventListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Everything that happened to units, oldest first. */
  public List<UnitEvent> history() {
    synchronized (gate.monitor()) {
      return List.copyOf(history);
    }
  }

  /** How many daemon-reloads ran (directly, or through an enable/disable that changed a link). */
  public long reloadCount() {
    synchronized (gate.monitor()) {
      return reloads;
    }
  }

  /** A unit's state without journaling the query (for assertions). */
  public UnitStatus peek(String unit) {
    synchronized (gate.monitor()) {
      tick();
      try {
        return statusOf(requireName(unit));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the unit files of " + unit, e);
      }
    }
  }

  /** The main process of an active unit. */
  public Optional<SimProcess> mainProcess(String unit) {
    synchronized (gate.monitor()) {
      tick();
      Unit u = units.get(unit);
      return u == null || u.mainPid == 0 ? Optional.empty() : processes.process(u.mainPid);
    }
  }

  /** Names of the units currently active, sorted. */
  public List<String> activeUnits() {
    synchronized (gate.monitor()) {
      tick();
      return units.values().stream()
          .filter(u -> u.active == ActiveState.ACTIVE && !BUILTIN_TARGETS.contains(u.name))
          .map(u -> u.name)
          .toList();
    }
  }

  /** Whether {@code unit} has an install link in {@code <systemdDir>/<target>.wants}. */
  public boolean isEnabled(String unit, String target) {
    synchronized (gate.monitor()) {
      try {
        return fs.lstat(systemdDir.resolve(target + ".wants").resolve(unit)).isPresent();
      } catch (IOException e) {
        return false;
      }
    }
  }

  /**
   * The system bus went away ({@code systemctl restart dbus.service}, or dbus killed): until
   * {@link #regainBus()}, every call fails {@link SystemdException.Kind#UNREACHABLE} and no watch
   * is told of a change. Units run on, as systemd does without its bus.
   */
  public void loseBus() {
    synchronized (gate.monitor()) {
      if (busLostAt.isEmpty()) {
        busLostAt = Optional.of(clock.now());
      }
    }
  }

  /**
   * The system bus is back and the port has found it again: calls work, and each watch is told
   * of every unit whose state changed while the bus was away (as the port reads them once it is
   * back), then of changes as they come.
   */
  public void regainBus() {
    synchronized (gate.monitor()) {
      if (busLostAt.isEmpty()) {
        return;
      }
      busLostAt = Optional.empty();
      for (Watch watch : watches) {
        for (String unit : watch.units()) {
          Unit u = units.get(unit);
          if (u != null && watch.told().get(unit) != u.active) {
            watch.tell(statusOf(u));
          }
        }
      }
    }
  }

  /**
   * Power loss: every unit is forgotten (loaded again on demand from the durable files), nothing
   * runs, and no watch is left (its subscriber died with the host).
   */
  public void crash() {
    units.clear();
    watches.clear();
    busLostAt = Optional.empty();
  }

  /**
   * Boot after a crash: starts every unit linked in {@code multi-user.target.wants} or
   * {@code .requires} (and what they pull in), as systemd would at boot: a unit ordered
   * {@code After=} another of them (or that one {@code Before=} it) starts once that one's start
   * job ended, so a gate the others are ordered after runs first. Not journaled.
   */
  public void bootEnabledUnits() {
    synchronized (gate.monitor()) {
      List<String> enabled = new ArrayList<>();
      for (String dir : List.of("multi-user.target.wants", "multi-user.target.requires")) {
        Path links = systemdDir.resolve(dir);
        try {
          if (fs.lstat(links).isPresent()) {
            for (String unit : fs.list(links)) {
              if (!enabled.contains(unit)) {
                enabled.add(unit);
              }
            }
          }
        } catch (IOException e) {
          throw new IllegalStateException("cannot read " + links, e);
        }
      }
      Set<String> booted = new HashSet<>();
      // one transaction: every unit has one start job in it
      Map<String, JobResult> jobs = new HashMap<>();
      try {
        for (String unit : enabled) {
          bootInOrder(unit, enabled, booted, jobs);
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the unit files of the enabled units", e);
      }
    }
  }

  /** Starts {@code unit} after the units of {@code enabled} it is ordered after (an ordering cycle is broken where it closes). */
  private void bootInOrder(
      String unit, List<String> enabled, Set<String> booted, Map<String, JobResult> jobs)
      throws IOException {
    if (!booted.add(unit)) {
      return;
    }
    for (String other : enabled) {
      if (!other.equals(unit) && orderedBefore(other, unit)) {
        bootInOrder(other, enabled, booted, jobs);
      }
    }
    startUnit(unit, Duration.ofMinutes(5), jobs, false);
  }

  /** Whether {@code first}'s start job must end before {@code then}'s runs ({@code After=}/{@code Before=}). */
  private boolean orderedBefore(String first, String then) throws IOException {
    Optional<UnitDefinition> a = definitionOf(then);
    Optional<UnitDefinition> b = definitionOf(first);
    return a.map(d -> d.after().contains(first)).orElse(false)
        || b.map(d -> d.before().contains(then)).orElse(false);
  }

  private Optional<UnitDefinition> definitionOf(String name) throws IOException {
    return load(name).map(u -> u.definition);
  }

  // ---------------------------------------------------------------- mechanics

  /**
   * Rejects a name that is no valid unit name before anything reaches the manager, as the real
   * adapter does: at most 255 characters of {@code [A-Za-z0-9:_.\@-]}, not starting with a dot,
   * ending in a unit type suffix.
   */
  private static String requireName(String unit) {
    if (unit == null) {
      throw new IllegalArgumentException("unit name must not be null");
    }
    if (unit.length() > MAX_UNIT_NAME_LENGTH
        || unit.startsWith(".")
        || !UNIT_NAME.matcher(unit).matches()) {
      throw new IllegalArgumentException(
          "not a valid systemd unit name (expected e.g. kubelet.service): '" + unit + "'");
    }
    return unit;
  }

  /** Unit names, or absolute paths whose file name is one (as the real adapter accepts). */
  private static List<String> requireUnitFiles(List<String> units) {
    Objects.requireNonNull(units, "units");
    for (String unit : units) {
      if (unit != null && unit.startsWith("/")) {
        String fileName = unit.substring(unit.lastIndexOf('/') + 1);
        if (fileName.isEmpty() || !UNIT_NAME.matcher(fileName).matches()) {
          throw new IllegalArgumentException(
              "not a unit file path (expected e.g. /etc/systemd/system/kubelet.service): '" + unit
                  + "'");
        }
      } else {
        requireName(unit);
      }
    }
    return List.copyOf(units);
  }

  /**
   * The unit a file argument of enable names: a unit name itself, or the file name of a path in a
   * unit directory. Linking a file from elsewhere into the unit directory is not modelled.
   */
  private String unitOfFile(String file) {
    if (!file.startsWith("/")) {
      return file;
    }
    Path path = Path.of(file);
    if (!unitDirs.contains(path.getParent())) {
      throw new SystemdException(
          SystemdException.Kind.OTHER,
          file,
          "the simulated systemd enables unit files in " + unitDirs + " only, not " + file);
    }
    return String.valueOf(path.getFileName());
  }

  private SystemdException noSuchUnit(String unit) {
    return new SystemdException(
        SystemdException.Kind.NO_SUCH_UNIT, unit, "Unit " + unit + " not found.");
  }

  private SystemdException noSuchUnitFile(String unit) {
    return new SystemdException(
        SystemdException.Kind.NO_SUCH_UNIT, unit, "Unit file " + unit + " does not exist.");
  }

  /** The unit, loaded now if its file exists; empty when there is none. */
  private Optional<Unit> load(String name) throws IOException {
    Unit u = units.get(name);
    if (u != null && u.definition != null) {
      return Optional.of(u);
    }
    Optional<UnitDefinition> d = readDefinition(name);
    if (d.isEmpty()) {
      return Optional.ofNullable(u);
    }
    if (u == null) {
      u = new Unit(name, d.get());
      if (BUILTIN_TARGETS.contains(name)) {
        enterActive(u);
        u.sub = "active";
      }
      units.put(name, u);
    } else {
      u.definition = d.get();
    }
    return Optional.of(u);
  }

  private Unit requireLoaded(String unit) throws IOException {
    return load(requireName(unit)).orElseThrow(() -> noSuchUnit(unit));
  }

  private Optional<UnitDefinition> readDefinition(String name) throws IOException {
    Optional<String> fragment = Optional.empty();
    for (Path dir : unitDirs) {
      Path candidate = dir.resolve(name);
      if (fs.lstat(candidate).isPresent()) {
        fragment = Optional.of(candidate.toString());
        break;
      }
    }
    if (fragment.isEmpty()) {
      if (BUILTIN_TARGETS.contains(name)) {
        return Optional.of(UnitDefinition.empty(name, "/usr/lib/systemd/system/" + name, false));
      }
      return Optional.empty();
    }
    Path file = Path.of(fragment.get());
    Optional<FileMeta> target = fs.stat(file);
    if (target.isPresent() && target.get().type() == FileType.CHAR_DEVICE) {
      return Optional.of(UnitDefinition.empty(name, fragment.get(), true));
    }
    if (target.isEmpty() || !target.get().isRegularFile()) {
      return Optional.empty();
    }
    List<UnitFileParser.Setting> settings = new ArrayList<>(parse(file));
    List<String> dropIns = new ArrayList<>();
    for (Path dropIn : dropIns(name)) {
      settings.addAll(parse(dropIn));
      dropIns.add(dropIn.toString());
    }
    return Optional.of(UnitDefinition.from(name, fragment.get(), dropIns, settings, false));
  }

  private List<UnitFileParser.Setting> parse(Path file) throws IOException {
    return UnitFileParser.parse(new String(fs.read(file), StandardCharsets.UTF_8), file.toString());
  }

  private List<Path> dropIns(String name) throws IOException {
    Map<String, Path> byName = new TreeMap<>();
    for (Path dir : unitDirs) {
      Path d = dir.resolve(name + ".d");
      Optional<FileMeta> meta = fs.stat(d);
      if (meta.isEmpty() || !meta.get().isDirectory()) {
        continue;
      }
      for (String entry : fs.list(d)) {
        if (entry.endsWith(".conf")) {
          byName.putIfAbsent(entry, d.resolve(entry));
        }
      }
    }
    return List.copyOf(byName.values());
  }

  private void reload() throws IOException {
    reloads++;
    for (Unit u : List.copyOf(units.values())) {
      Optional<UnitDefinition> d = readDefinition(u.name);
      if (d.isPresent()) {
        u.definition = d.get();
      } else if (u.active == ActiveState.INACTIVE && u.mainPid == 0 && !u.starting) {
        units.remove(u.name);
      } else {
        u.definition = null;
      }
    }
  }

  private void enterActive(Unit u) {
    if (u.active != ActiveState.ACTIVE) {
      u.activeEnteredAt = Optional.of(clock.now());
    }
    setActive(u, ActiveState.ACTIVE);
  }

  /** Moves the unit to {@code state}, telling the watches of the unit when that is a change. */
  private void setActive(Unit u, ActiveState state) {
    if (u.active == state) {
      return;
    }
    u.active = state;
    if (busLostAt.isPresent()) {
      return;
    }
    for (Watch watch : watches) {
      if (watch.units().contains(u.name)) {
        watch.tell(statusOf(u));
      }
    }
  }

  private UnitStatus statusOf(String name) throws IOException {
    Optional<Unit> loaded = load(name);
    if (loaded.isEmpty()) {
      return new UnitStatus(name, LoadState.NOT_FOUND, ActiveState.INACTIVE, "dead", 0, "", "");
    }
    return statusOf(loaded.get());
  }

  private static UnitStatus statusOf(Unit u) {
    LoadState load = u.definition == null
        ? LoadState.NOT_FOUND
        : u.definition.masked() ? LoadState.MASKED : LoadState.LOADED;
    String fragment = u.definition == null ? "" : u.definition.fragmentPath();
    String result = u.definition != null && u.definition.isService() ? u.result : "";
    return new UnitStatus(
        u.name, load, u.active, u.sub, u.mainPid, fragment, result, u.activeEnteredAt);
  }

  /**
   * Starts {@code name} and what it pulls in; {@code jobs} holds the request's start jobs so far
   * (a unit mapped to null is being started: a dependency cycle closes there).
   */
  private JobResult startUnit(
      String name, Duration timeout, Map<String, JobResult> jobs, boolean explicit)
      throws IOException {
    Optional<Unit> loaded = load(name);
    if (loaded.isEmpty() || loaded.get().definition == null) {
      if (explicit) {
        throw noSuchUnit(name);
      }
      return JobResult.SKIPPED;
    }
    Unit u = loaded.get();
    UnitDefinition d = u.definition;
    if (d.masked()) {
      throw new SystemdException(SystemdException.Kind.OTHER, name, "Unit " + name + " is masked.");
    }
    if (jobs.containsKey(name)) {
      JobResult earlier = jobs.get(name);
      return earlier == null ? JobResult.DONE : earlier;
    }
    if (u.active == ActiveState.ACTIVATING) {
      // the start job joins the one still waiting for readiness, and waits as long
      clock.advance(timeout);
      return JobResult.WAIT_TIMEOUT;
    }
    if (u.active == ActiveState.ACTIVE) {
      return JobResult.DONE;
    }
    jobs.put(name, null);
    JobResult result = startJob(u, d, timeout, jobs);
    jobs.put(name, result);
    return result;
  }

  private JobResult startJob(
      Unit u, UnitDefinition d, Duration timeout, Map<String, JobResult> jobs) throws IOException {
    String name = u.name;
    boolean wasStarting = u.starting;
    u.starting = true;
    try {
      List<String> unordered = new ArrayList<>();
      for (String dep : d.pulledIn()) {
        boolean required = d.requires().contains(dep);
        Optional<Unit> depUnit = load(dep);
        if (depUnit.isEmpty() || depUnit.get().definition == null) {
          if (required) {
            throw noSuchUnit(dep);
          }
          continue;
        }
        if (!orderedBefore(dep, name)) {
          // no ordering: both jobs run at once, and this one may well finish first
          unordered.add(dep);
          continue;
        }
        JobResult r = startUnit(dep, timeout, jobs, false);
        if (required && (!r.succeeded() || depUnit.get().active == ActiveState.FAILED)) {
          event(name, "dependency-failed");
          return JobResult.DEPENDENCY;
        }
      }
      JobResult result = startItself(u, d, timeout);
      for (String dep : unordered) {
        startUnit(dep, timeout, jobs, false);
      }
      return result;
    } finally {
      u.starting = wasStarting;
    }
  }

  private JobResult startItself(Unit u, UnitDefinition d, Duration timeout) throws IOException {
    if (!conditionsMet(d)) {
      event(u.name, "condition-failed");
      return JobResult.DONE;
    }
    if (!d.isService()) {
      enterActive(u);
      u.sub = "active";
      event(u.name, "started");
      return JobResult.DONE;
    }
    return startService(u, d, timeout);
  }

  /**
   * systemd's rule: every plain condition holds, and when there are triggering ones ({@code |}),
   * at least one of them holds.
   */
  private boolean conditionsMet(UnitDefinition d) throws IOException {
    boolean anyTriggering = false;
    boolean triggered = false;
    for (UnitDefinition.PathCondition c : d.conditionPathExists()) {
      boolean holds = exists(c) != c.negated();
      if (c.triggering()) {
        anyTriggering = true;
        triggered |= holds;
      } else if (!holds) {
        return false;
      }
    }
    return !anyTriggering || triggered;
  }

  private boolean exists(UnitDefinition.PathCondition c) throws IOException {
    Path path = Path.of(c.path());
    switch (c.kind()) {
      case EXISTS:
        return fs.stat(path).isPresent();
      case DIRECTORY_NOT_EMPTY:
        return fs.stat(path).filter(m -> m.isDirectory()).isPresent()
            && !fs.list(path).isEmpty();
      default:
        break;
    }
    Path dir = path.getParent();
    if (dir == null || fs.stat(dir).filter(m -> m.isDirectory()).isEmpty()) {
      return false;
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + path.getFileName());
    for (String name : fs.list(dir)) {
      if (matcher.matches(Path.of(name))) {
        return true;
      }
    }
    return false;
  }

  private JobResult startService(Unit u, UnitDefinition d, Duration timeout) throws IOException {
    UnitBehaviour behaviour = behaviours.getOrDefault(u.name, UnitBehaviour.NORMAL);
    u.result = "success";
    u.failAt = Optional.empty();
    if (behaviour instanceof UnitBehaviour.FailsToStart) {
      fail(u, "exit-code");
      return JobResult.FAILED;
    }
    Map<String, String> env = new LinkedHashMap<>(d.environment());
    for (String spec : d.environmentFiles()) {
      boolean optional = spec.startsWith("-");
      Path file = Path.of(optional ? spec.substring(1) : spec);
      try {
        UnitFileParser.parseEnvironmentFile(new String(fs.read(file), StandardCharsets.UTF_8), env);
      } catch (HostIOException e) {
        if (!optional) {
          fail(u, "resources");
          return JobResult.FAILED;
        }
      }
    }
    Optional<List<String>> command = d.mainCommand();
    if (command.isEmpty()) {
      fail(u, "resources");
      return JobResult.FAILED;
    }
    Optional<Exec> exec = resolveExec(command.get(), env);
    if (exec.isEmpty()) {
      // 203/EXEC: a simple service's start job already succeeded when the exec fails
      fail(u, "exit-code");
      return d.type().equals("simple") ? JobResult.DONE : JobResult.FAILED;
    }
    Optional<String> refused = programRefusal.why(exec.get().argv());
    if (refused.isPresent()) {
      // the program starts and exits with an error; a simple service's start job has succeeded
      fail(u, "exit-code");
      return d.type().equals("simple") ? JobResult.DONE : JobResult.FAILED;
    }
    String cgroup = "/system.slice/" + u.name;
    SimProcess main = processes.spawn(
        new ProcessSpec(
            Optional.of(exec.get().exe()), exec.get().argv(), cgroup, List.of(), Set.of()),
        Optional.of(u.name));
    Optional<SimProgram> program = programOf(exec.get());
    if (program.isPresent()) {
      Optional<JobResult> ended =
          runProgram(u, d, main, program.get(), exec.get().argv());
      if (ended.isPresent()) {
        return ended.get();
      }
    }
    if (d.type().equals("oneshot")) {
      u.mainPid = 0;
      processes.exit(main.pid());
      if (d.remainAfterExit()) {
        enterActive(u);
        u.sub = "exited";
      } else {
        setActive(u, ActiveState.INACTIVE);
        u.sub = "dead";
      }
      u.mainPid = 0;
      event(u.name, "started");
      return JobResult.DONE;
    }
    u.mainPid = main.pid();
    if (behaviour instanceof UnitBehaviour.HangsActivating) {
      setActive(u, ActiveState.ACTIVATING);
      u.sub = "start";
      event(u.name, "activating");
      clock.advance(timeout);
      return JobResult.WAIT_TIMEOUT;
    }
    enterActive(u);
    u.sub = "running";
    if (behaviour instanceof UnitBehaviour.ActiveThenFails later) {
      u.failAt = Optional.of(clock.now().plus(later.after()));
    }
    event(u.name, "started");
    return JobResult.DONE;
  }

  /**
   * Runs a unit's installed program as its main process, the unit {@code activating}: empty when
   * it returned 0 (the start goes on), else how the start job ended. A oneshot's main process
   * stays until the caller ends it.
   */
  private Optional<JobResult> runProgram(
      Unit u, UnitDefinition d, SimProcess main, SimProgram program, List<String> argv) {
    u.mainPid = main.pid();
    setActive(u, ActiveState.ACTIVATING);
    u.sub = "start";
    event(u.name, "activating");
    int status;
    try {
      status = program.run(List.copyOf(argv));
    } catch (IOException e) {
      status = 1;
    }
    if (u.mainPid != main.pid()) {
      // stopped or killed while it ran: the start job did not finish
      return Optional.of(u.active == ActiveState.FAILED ? JobResult.FAILED : JobResult.CANCELED);
    }
    if (status == 0) {
      return Optional.empty();
    }
    u.mainPid = 0;
    processes.exit(main.pid());
    fail(u, "exit-code");
    // a simple service's start job succeeded when its process was started
    return Optional.of(d.type().equals("simple") ? JobResult.DONE : JobResult.FAILED);
  }

  /** The program installed at the path the unit names, or at any path that resolves to the same file. */
  private Optional<SimProgram> programOf(Exec exec) throws IOException {
    SimProgram named = programs.get(exec.found());
    if (named != null) {
      return Optional.of(named);
    }
    for (Map.Entry<Path, SimProgram> installed : programs.entrySet()) {
      if (fs.stat(installed.getKey()).isPresent()
          && fs.realPath(installed.getKey()).toString().equals(exec.exe())) {
        return Optional.of(installed.getValue());
      }
    }
    return Optional.empty();
  }

  /** A program to run: its file as found on the search path, that file with every link resolved, its argv. */
  private record Exec(Path found, String exe, List<String> argv) {}

  private Optional<Exec> resolveExec(List<String> words, Map<String, String> env)
      throws IOException {
    List<String> expanded = expand(words, env);
    if (expanded.isEmpty()) {
      return Optional.empty();
    }
    String program = expanded.get(0);
    boolean argv0Given = false;
    while (!program.isEmpty() && "@-:+!".indexOf(program.charAt(0)) >= 0) {
      argv0Given |= program.charAt(0) == '@';
      program = program.substring(1);
    }
    List<String> argv = new ArrayList<>(expanded.subList(1, expanded.size()));
    if (argv0Given) {
      if (argv.isEmpty()) {
        return Optional.empty();
      }
    } else {
      argv.add(0, program);
    }
    Optional<Path> found = findProgram(program);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Exec(found.get(), fs.realPath(found.get()).toString(), argv));
  }

  private Optional<Path> findProgram(String program) throws IOException {
    List<Path> candidates = new ArrayList<>();
    if (program.startsWith("/")) {
      candidates.add(Path.of(program));
    } else if (!program.contains("/")) {
      for (String dir : EXEC_SEARCH_PATH) {
        candidates.add(Path.of(dir, program));
      }
    }
    for (Path candidate : candidates) {
      Optional<FileMeta> meta = fs.stat(candidate);
      if (meta.isPresent() && meta.get().isRegularFile() && (meta.get().mode() & 0111) != 0) {
        return Optional.of(candidate.normalize());
      }
    }
    return Optional.empty();
  }

  /** {@code ${VAR}} is replaced within a word; a word that is exactly {@code $VAR} becomes the value's words. */
  private static List<String> expand(List<String> words, Map<String, String> env) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      if (w.matches("\\$[A-Za-z_][A-Za-z0-9_]*")) {
        String value = env.getOrDefault(w.substring(1), "");
        out.addAll(UnitFileParser.words(value));
        continue;
      }
      StringBuilder b = new StringBuilder();
      int i = 0;
      while (i < w.length()) {
        int start = w.indexOf("${", i);
        int end = start < 0 ? -1 : w.indexOf('}', start);
        if (start < 0 || end < 0) {
          b.append(w, i, w.length());
          break;
        }
        b.append(w, i, start).append(env.getOrDefault(w.substring(start + 2, end), ""));
        i = end + 1;
      }
      out.add(b.toString());
    }
    return out;
  }

  private void fail(Unit u, String result) {
    setActive(u, ActiveState.FAILED);
    u.sub = "failed";
    u.result = result;
    u.failAt = Optional.empty();
    long main = u.mainPid;
    u.mainPid = 0;
    if (main != 0) {
      u.stopping = true;
      processes.signal(main, SimProcesses.SIGKILL);
      u.stopping = false;
    }
    killRemaining(u);
    event(u.name, "failed");
  }

  private void stopUnit(Unit u) {
    for (Unit d : activeDependentsRequiring(u.name)) {
      stopUnit(d);
    }
    boolean running = u.active == ActiveState.ACTIVE
        || u.active == ActiveState.ACTIVATING
        || u.active == ActiveState.RELOADING;
    if (!running && u.mainPid == 0) {
      return;
    }
    u.stopping = true;
    try {
      if (u.mainPid != 0) {
        processes.signal(u.mainPid, SimProcesses.SIGKILL);
      }
      if (u.definition == null || !u.definition.killMode().equals("process")) {
        killRemaining(u);
      }
    } finally {
      u.stopping = false;
    }
    u.mainPid = 0;
    u.failAt = Optional.empty();
    if (u.active != ActiveState.FAILED) {
      setActive(u, ActiveState.INACTIVE);
      u.sub = "dead";
    }
    processes.removeCgroupIfEmpty("/system.slice/" + u.name);
    event(u.name, "stopped");
  }

  private void killRemaining(Unit u) {
    String cgroup = "/system.slice/" + u.name;
    for (long pid : processesOf(u)) {
      processes.signal(pid, SimProcesses.SIGKILL);
    }
    processes.removeCgroupIfEmpty(cgroup);
  }

  private List<Long> processesOf(Unit u) {
    String cgroup = "/system.slice/" + u.name;
    return processes.all().stream()
        .filter(p -> p.cgroup().equals(cgroup) || p.cgroup().startsWith(cgroup + "/"))
        .map(SimProcess::pid)
        .toList();
  }

  private List<Unit> activeDependentsRequiring(String name) {
    List<Unit> out = new ArrayList<>();
    for (Unit other : units.values()) {
      if (other.definition != null
          && other.definition.requires().contains(name)
          && (other.active == ActiveState.ACTIVE || other.active == ActiveState.ACTIVATING)) {
        out.add(other);
      }
    }
    return out;
  }

  private void processExited(SimProcess p, int signal) {
    if (p.unit().isEmpty()) {
      return;
    }
    Unit u = units.get(p.unit().get());
    if (u == null || u.mainPid != p.pid() || u.stopping) {
      return;
    }
    u.mainPid = 0;
    fail(u, signal == 0 ? "exit-code" : "signal");
  }

  /**
   * Unloads units that are inactive, run nothing and are not wanted or required by an active
   * unit (in its definition, or through an install link: an enabled unit stays loaded), as
   * systemd's garbage collection does: their next reference reads the unit file again,
   * so only loaded (active or failed) units keep a stale definition until daemon-reload.
   */
  private void collectGarbage() {
    for (Unit u : List.copyOf(units.values())) {
      if (u.active != ActiveState.INACTIVE
          || u.mainPid != 0
          || u.starting
          || BUILTIN_TARGETS.contains(u.name)
          || !processesOf(u).isEmpty()) {
        continue;
      }
      boolean referenced = false;
      for (String target : BUILTIN_TARGETS) {
        referenced |= installLinked(target, u.name);
      }
      for (Unit other : units.values()) {
        if (other != u
            && other.definition != null
            && other.active != ActiveState.INACTIVE
            && (other.definition.wants().contains(u.name)
                || other.definition.requires().contains(u.name)
                || installLinked(other.name, u.name))) {
          referenced = true;
          break;
        }
      }
      if (!referenced) {
        units.remove(u.name);
      }
    }
  }

  /** Whether {@code unit} is linked into {@code target}'s {@code .wants}/{@code .requires} directory (an enabled unit). */
  private boolean installLinked(String target, String unit) {
    try {
      return fs.lstat(systemdDir.resolve(target + ".wants").resolve(unit)).isPresent()
          || fs.lstat(systemdDir.resolve(target + ".requires").resolve(unit)).isPresent();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the install links of " + target, e);
    }
  }

  /** Applies scheduled failures whose time has come. */
  private void tick() {
    Instant now = clock.now();
    for (Unit u : List.copyOf(units.values())) {
      if (u.failAt.isPresent() && !now.isBefore(u.failAt.get()) && u.active == ActiveState.ACTIVE) {
        u.failAt = Optional.empty();
        if (u.mainPid != 0) {
          processes.exit(u.mainPid);
        } else {
          fail(u, "exit-code");
        }
      }
    }
  }

  /** Links {@code d} into {@code wantsDir}; whether a link was created (an identical one is kept). */
  private boolean linkInstall(String wantsDir, UnitDefinition d) throws IOException {
    Path dir = systemdDir.resolve(wantsDir);
    if (fs.lstat(dir).isEmpty()) {
      fs.seedDirectory(dir, 0755);
    }
    Path link = dir.resolve(d.name());
    Optional<FileMeta> existing = fs.lstat(link);
    if (existing.isPresent()
        && existing.get().isSymlink()
        && fs.readLink(link).equals(d.fragmentPath())) {
      return false;
    }
    fs.seedSymlink(link, d.fragmentPath());
    return true;
  }

  private void event(String unit, String what) {
    UnitEvent event = new UnitEvent(clock.now(), unit, what);
    history.add(event);
    eventListeners.forEach(listener -> listener.accept(event));
  }
}
