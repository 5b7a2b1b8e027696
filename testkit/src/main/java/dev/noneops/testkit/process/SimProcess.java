package dev.noneops.testkit.process;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One simulated process.
 *
 * @param pid its id
 * @param exe the canonical path of its executable; empty for a kernel thread
 * @param argv its command line
 * @param cgroup its cgroup v2 path
 * @param mappedFiles the files it maps (its executable, libraries, ...)
 * @param ignoredSignals signals it survives (besides SIGKILL, which nothing survives)
 * @param unit the systemd unit it belongs to, when systemd started it
 */
public record SimProcess(
    long pid,
    Optional<String> exe,
    List<String> argv,
    String cgroup,
    List<String> mappedFiles,
    Set<Integer> ignoredSignals,
    Optional<String> unit) {
  public SimProcess {
    Objects.requireNonNull(exe, "exe");
    argv = List.copyOf(argv);
    Objects.requireNonNull(cgroup, "cgroup");
    mappedFiles = List.copyOf(mappedFiles);
    ignoredSignals = Set.copyOf(ignoredSignals);
    Objects.requireNonNull(unit, "unit");
  }
}
