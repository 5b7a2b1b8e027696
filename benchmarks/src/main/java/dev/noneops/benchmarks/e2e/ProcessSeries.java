package dev.noneops.benchmarks.e2e;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A process inside the sandbox sampled over a window: the main process of a unit (looked up with
 * {@code systemctl show -p MainPID} at every sample, so a restart is seen) or a fixed PID (the
 * sandbox's systemd, PID 1). Each sample reads {@code /proc/<pid>/stat} and {@code status} there.
 */
final class ProcessSeries {
  private final String label;
  private final Optional<String> unit;
  private final List<ProcStat> stats = new ArrayList<>();
  private final List<Long> nanos = new ArrayList<>();

  private ProcessSeries(String label, Optional<String> unit) {
    this.label = label;
    this.unit = unit;
  }

  static ProcessSeries ofUnit(String label, String unit) {
    return new ProcessSeries(label, Optional.of(unit));
  }

  static ProcessSeries ofPid1(String label) {
    return new ProcessSeries(label, Optional.empty());
  }

  String label() {
    return label;
  }

  Optional<String> unit() {
    return unit;
  }

  /** Takes one sample now. */
  void sample(SystemdSandbox sandbox) {
    long pid = unit.isEmpty() ? 1 : mainPid(sandbox, unit.get());
    String out = sandbox
        .exec("sh", "-c", "cat /proc/" + pid + "/stat && echo --- && cat /proc/" + pid + "/status")
        .orThrow()
        .stdout();
    int split = out.indexOf("\n---\n");
    if (split < 0) {
      throw new IllegalStateException("cannot read /proc/" + pid + " of " + label + ": " + out);
    }
    nanos.add(System.nanoTime());
    stats.add(ProcStat.parse(pid, out.substring(0, split), out.substring(split + 5)));
  }

  static long mainPid(SystemdSandbox sandbox, String unit) {
    String pid = sandbox
        .systemctl("show", "-p", "MainPID", "--value", unit)
        .orThrow()
        .stdout()
        .strip();
    long value = Long.parseLong(pid);
    if (value <= 0) {
      throw new IllegalStateException(unit + " has no main process (MainPID=" + pid + ")");
    }
    return value;
  }

  /** The PIDs seen, in order, each once: more than one means the unit's process was restarted. */
  List<Long> pids() {
    return stats.stream().map(ProcStat::pid).distinct().toList();
  }

  int count() {
    return stats.size();
  }

  /** RSS of each sample, in MB. */
  Samples rss() {
    Samples s = new Samples("MB");
    stats.forEach(p -> s.add(p.rssKb() / 1024.0));
    return s;
  }

  int maxThreads() {
    return stats.stream().mapToInt(ProcStat::threads).max().orElse(0);
  }

  /** CPU time (user + system) used between the first and the last sample, in seconds. */
  double cpuSeconds(long ticksPerSecond) {
    if (pids().size() != 1) {
      throw new IllegalStateException(label + " was restarted during the window (PIDs " + pids()
          + "): its CPU time is not one process's");
    }
    return (stats.get(stats.size() - 1).cpuTicks() - stats.get(0).cpuTicks())
        / (double) ticksPerSecond;
  }

  /** CPU time at the first sample, since the process started, in seconds. */
  double cpuSecondsBefore(long ticksPerSecond) {
    return stats.get(0).cpuTicks() / (double) ticksPerSecond;
  }

  /** Wall time between the first and the last sample, in seconds. */
  double windowSeconds() {
    return (nanos.get(nanos.size() - 1) - nanos.get(0)) / 1e9;
  }
}
