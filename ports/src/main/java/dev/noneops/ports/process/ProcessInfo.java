package dev.noneops.ports.process;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One process as {@code /proc/<pid>} describes it.
 *
 * @param pid the process id
 * @param exe the target of {@code /proc/<pid>/exe}; empty for kernel threads or when unreadable.
 *     A deleted executable keeps the kernel's {@code " (deleted)"} suffix
 * @param argv {@code /proc/<pid>/cmdline} split at NUL
 * @param cgroup the cgroup v2 path from {@code /proc/<pid>/cgroup} ({@code 0::<path>}), e.g.
 *     {@code /kubepods.slice/kubepods-pod1.slice}; empty when unknown
 * @param mappedFiles the distinct file paths in {@code /proc/<pid>/maps}
 */
public record ProcessInfo(long pid, Optional<String> exe, List<String> argv, String cgroup, List<String> mappedFiles) {
  public ProcessInfo {
    Objects.requireNonNull(exe, "exe");
    argv = List.copyOf(argv);
    Objects.requireNonNull(cgroup, "cgroup");
    mappedFiles = List.copyOf(mappedFiles);
  }
}
