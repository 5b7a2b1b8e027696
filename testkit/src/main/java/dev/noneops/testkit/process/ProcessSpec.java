package dev.noneops.testkit.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What to spawn on the simulated host: {@code ProcessSpec.of("/opt/x/bin/shim", "shim", "-id", "a").inCgroup("/kubepods.slice/p1")}.
 */
public record ProcessSpec(
    Optional<String> exe,
    List<String> argv,
    String cgroup,
    List<String> extraMappedFiles,
    Set<Integer> ignoredSignals) {
  public ProcessSpec {
    Objects.requireNonNull(exe, "exe");
    argv = List.copyOf(argv);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a process needs an argv[0]");
    }
    requireCgroupPath(cgroup);
    extraMappedFiles = List.copyOf(extraMappedFiles);
    ignoredSignals = Set.copyOf(ignoredSignals);
  }

  /** A process running {@code exe} with {@code argv}, in the root cgroup, mapping only its executable. */
  public static ProcessSpec of(String exe, String... argv) {
    return new ProcessSpec(Optional.of(exe), List.of(argv), "/", List.of(), Set.of());
  }

  public ProcessSpec inCgroup(String path) {
    return new ProcessSpec(exe, argv, path, extraMappedFiles, ignoredSignals);
  }

  /** Also maps these files (shared libraries, a deleted binary, ...). */
  public ProcessSpec mapping(String... files) {
    List<String> all = new ArrayList<>(extraMappedFiles);
    all.addAll(List.of(files));
    return new ProcessSpec(exe, argv, cgroup, all, ignoredSignals);
  }

  /** Survives these signals (SIGKILL cannot be ignored). */
  public ProcessSpec ignoring(Integer... signals) {
    return new ProcessSpec(exe, argv, cgroup, extraMappedFiles, Set.of(signals));
  }

  static void requireCgroupPath(String cgroup) {
    Objects.requireNonNull(cgroup, "cgroup");
    if (!cgroup.startsWith("/")
        || (cgroup.length() > 1 && cgroup.endsWith("/"))
        || cgroup.contains("//")
        || cgroup.contains("/../")
        || cgroup.endsWith("/..")) {
      throw new IllegalArgumentException(
          "a cgroup path starts with / and has no empty or .. parts: '" + cgroup + "'");
    }
  }
}
