package dev.noneops.benchmarks.e2e;

import java.util.Arrays;
import java.util.List;

/**
 * One reading of a process's {@code /proc/<pid>/stat} and {@code /proc/<pid>/status}: its CPU time
 * (user + system, in clock ticks), its resident set and its thread count.
 *
 * @param pid the process, in the sandbox's PID namespace
 * @param cpuTicks {@code utime + stime} (fields 14 and 15 of {@code stat})
 * @param rssKb {@code VmRSS} of {@code status}
 * @param threads {@code Threads} of {@code status}
 */
record ProcStat(long pid, long cpuTicks, long rssKb, int threads) {

  /** Parses {@code stat} (one line) and {@code status} of process {@code pid}. */
  static ProcStat parse(long pid, String stat, String status) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
    }
    // After "pid (comm)" come the fields from the third on: state is field 3, utime 14, stime 15.
    List<String> fields = Arrays.asList(stat.substring(close + 1).strip().split("\\s+"));
    long utime = Long.parseLong(fields.get(14 - 3));
    long stime = Long.parseLong(fields.get(15 - 3));
    return new ProcStat(
        pid, utime + stime, field(status, "VmRSS:"), (int) field(status, "Threads:"));
  }

  private static long field(String status, String name) {
    return status
        .lines()
        .filter(l -> l.startsWith(name))
        .map(l -> l.substring(name.length()).strip().split("\\s+")[0])
        .mapToLong(Long::parseLong)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no " + name + " in /proc/<pid>/status"));
  }
}
