package dev.noneops.testkit.process;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The simulated kernel's process table and cgroup v2 tree. Signals kill processes the way their
 * default dispositions do; {@code cgroup.kill} can be switched off to model kernels before 5.14.
 *
 * <p>The process calling the ports ({@link #self()}) is {@link #AGENT} unless a test has it act as
 * a process it spawned ({@link #actAs}): an embedding agent, say, that may later die. The agent's
 * own process is not listed, as the test's JVM is no process of the simulated host's.
 */
public final class SimProcesses {
  public static final int SIGHUP = 1;
  public static final int SIGINT = 2;
  public static final int SIGQUIT = 3;
  public static final int SIGABRT = 6;
  public static final int SIGKILL = 9;
  public static final int SIGUSR1 = 10;
  public static final int SIGUSR2 = 12;
  public static final int SIGPIPE = 13;
  public static final int SIGALRM = 14;
  public static final int SIGTERM = 15;
  private static final Set<Integer> FATAL_BY_DEFAULT = Set.of(
      SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGKILL, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM);

  private final TreeMap<Long, SimProcess> table = new TreeMap<>();
  private final TreeSet<String> cgroups = new TreeSet<>();
  private final List<BiConsumer<SimProcess, Integer>> exitListeners = new ArrayList<>();
  private final Predicate<String> fileExists;
  /** The process that calls the ports unless a test has it act as another. */
  public static final ProcessIdentity AGENT = new ProcessIdentity(100, 1);

  private final Map<Long, Long> startTimes = new HashMap<>();
  private long nextPid = 1000;
  private long ticks = 1;
  private ProcessIdentity self = AGENT;
  private boolean cgroupsAvailable = true;
  private boolean killSupported = true;

  /** @param fileExists whether an executable path still exists (else {@code /proc/<pid>/exe} says "(deleted)") */
  public SimProcesses(Predicate<String> fileExists) {
    this.fileExists = fileExists;
    cgroups.add("/");
  }

  /** Called with the process and the signal that ended it, whenever a process dies. */
  public void onExit(BiConsumer<SimProcess, Integer> listener) {
    exitListeners.add(listener);
  }

  /** Starts a process; its cgroup (and the cgroup's parents) are created as needed. */
  public SimProcess spawn(ProcessSpec spec) {
    return spawn(spec, Optional.empty());
  }

  /** Starts a process belonging to a systemd unit. */
  public SimProcess spawn(ProcessSpec spec, Optional<String> unit) {
    createCgroup(spec.cgroup());
    List<String> mapped = new ArrayList<>();
    spec.exe().ifPresent(mapped::add);
    for (String f : spec.extraMappedFiles()) {
      if (!mapped.contains(f)) {
        mapped.add(f);
      }
    }
    SimProcess p = new SimProcess(
        nextPid++, spec.exe(), spec.argv(), spec.cgroup(), mapped, spec.ignoredSignals(), unit);
    table.put(p.pid(), p);
    startTimes.put(p.pid(), ++ticks);
    return p;
  }

  /** Creates a cgroup and its missing parents. */
  public void createCgroup(String path) {
    ProcessSpec.requireCgroupPath(path);
    for (String p = path; !p.equals("/"); p = parentOf(p)) {
      cgroups.add(p);
    }
  }

  public Optional<SimProcess> process(long pid) {
    return Optional.ofNullable(table.get(pid));
  }

  /** The identity of a live process (its start time is the order it was spawned in); empty when none. */
  public Optional<ProcessIdentity> identity(long pid) {
    if (pid == AGENT.pid()) {
      return Optional.of(AGENT);
    }
    return process(pid).map(p -> new ProcessIdentity(p.pid(), startTimes.get(p.pid())));
  }

  /** The process calling the ports. */
  public ProcessIdentity self() {
    return self;
  }

  /** Has the ports called as {@code process} until {@link #actAsAgent()}. */
  public void actAs(SimProcess process) {
    self = identity(process.pid())
        .orElseThrow(() -> new IllegalArgumentException("no process " + process.pid()));
  }

  /** Has the ports called as {@link #AGENT} again. */
  public void actAsAgent() {
    self = AGENT;
  }

  /** Every live process, by pid. */
  public List<SimProcess> all() {
    return List.copyOf(table.values());
  }

  /** The port's view of a process. */
  public ProcessInfo info(SimProcess p) {
    Optional<String> exe = p.exe().map(e -> fileExists.test(e) ? e : e + " (deleted)");
    return new ProcessInfo(p.pid(), exe, p.argv(), p.cgroup(), p.mappedFiles());
  }

  /** Delivers a signal; returns false when the process does not exist. Signal 0 only checks existence. */
  public boolean signal(long pid, int signal) {
    if (signal < 0 || signal > 64) {
      throw new IllegalArgumentException("no such signal: " + signal);
    }
    SimProcess p = table.get(pid);
    if (p == null) {
      return false;
    }
    if (signal == SIGKILL
        || (FATAL_BY_DEFAULT.contains(signal) && !p.ignoredSignals().contains(signal))) {
      exit(p, signal);
    }
    return true;
  }

  /** Ends a process as if it exited by itself (signal 0 = normal exit). */
  public void exit(long pid) {
    SimProcess p = table.get(pid);
    if (p != null) {
      exit(p, 0);
    }
  }

  private void exit(SimProcess p, int signal) {
    table.remove(p.pid());
    startTimes.remove(p.pid());
    for (BiConsumer<SimProcess, Integer> l : List.copyOf(exitListeners)) {
      l.accept(p, signal);
    }
  }

  // ---------------------------------------------------------------- cgroups

  public boolean cgroupsAvailable() {
    return cgroupsAvailable;
  }

  /** Models a host without a unified hierarchy. */
  public void setCgroupsAvailable(boolean available) {
    this.cgroupsAvailable = available;
  }

  public boolean killSupported() {
    return killSupported;
  }

  /** Models a kernel without {@code cgroup.kill} (before 5.14). */
  public void setKillSupported(boolean supported) {
    this.killSupported = supported;
  }

  public boolean cgroupExists(String path) {
    ProcessSpec.requireCgroupPath(path);
    return cgroupsAvailable && cgroups.contains(path);
  }

  public List<String> children(String path) throws HostIOException {
    requireCgroup(path, "opendir");
    String prefix = path.equals("/") ? "/" : path + "/";
    List<String> out = new ArrayList<>();
    for (String c : cgroups.tailSet(prefix, false)) {
      if (!c.startsWith(prefix)) {
        break;
      }
      if (c.indexOf('/', prefix.length()) < 0) {
        out.add(c);
      }
    }
    return out;
  }

  public List<Long> pids(String path) throws HostIOException {
    requireCgroup(path, "read cgroup.procs");
    return table.values().stream()
        .filter(p -> p.cgroup().equals(path))
        .map(SimProcess::pid)
        .toList();
  }

  /** {@code cgroup.kill}: SIGKILL to every process of the subtree. */
  public void killCgroup(String path) throws HostIOException {
    requireCgroup(path, "write cgroup.kill");
    if (!killSupported) {
      throw new HostIOException(
          Errno.ENOENT,
          "write",
          "/sys/fs/cgroup" + (path.equals("/") ? "" : path) + "/cgroup.kill");
    }
    String prefix = path.equals("/") ? "/" : path + "/";
    for (SimProcess p : List.copyOf(table.values())) {
      if (p.cgroup().equals(path) || p.cgroup().startsWith(prefix)) {
        exit(p, SIGKILL);
      }
    }
  }

  /** {@code rmdir} of a cgroup: EBUSY while it has processes or children. */
  public void removeCgroup(String path) throws HostIOException {
    requireCgroup(path, "rmdir");
    if (path.equals("/") || !children(path).isEmpty() || !pids(path).isEmpty()) {
      throw new HostIOException(Errno.EBUSY, "rmdir", "/sys/fs/cgroup" + path);
    }
    cgroups.remove(path);
  }

  /** Removes a cgroup if it is empty and has no children; returns whether it is gone. */
  public boolean removeCgroupIfEmpty(String path) {
    if (!cgroups.contains(path) || path.equals("/")) {
      return !cgroups.contains(path);
    }
    try {
      removeCgroup(path);
      return true;
    } catch (HostIOException e) {
      return false;
    }
  }

  private void requireCgroup(String path, String op) throws HostIOException {
    if (!cgroupExists(path)) {
      throw new HostIOException(Errno.ENOENT, op, "/sys/fs/cgroup" + path);
    }
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }

  /** Power loss: every process is gone (without exit notifications), the cgroup tree is empty again. */
  public void crash() {
    table.clear();
    startTimes.clear();
    self = AGENT;
    cgroups.clear();
    cgroups.add("/");
  }
}
