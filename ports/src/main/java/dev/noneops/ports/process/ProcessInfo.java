package dev.noneops.ports.process;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One process as {@code /proc/<pid>} describes it.
 *
 * @param pid the process id
 * @param exe the target of {@code /proc/<pid>/exe}; empty for kernel threads or when unreadable.
 *     A deleted executable keeps the kernel's {@code " (deleted)"} suffix
 * @param argv {@code /proc/<pid>/cmdline} split at NUL
 * @param cgroup the cgroup v2 path from {@code /proc/<pid>/cgroup} ({@code 0::<path>}), e.g.
 *     {@code /kubepods.slice/kubepods-pod1.slice}; empty when unknown
 * @param mappedFiles the distinct file paths in {@code /proc/<pid>/maps}; always empty when the
 *     process was read without {@link ProcessDetail#MAPPED_FILES}
 */
public record ProcessInfo(
    long pid, Optional<String> exe, List<String> argv, String cgroup, List<String> mappedFiles) {
  public ProcessInfo {
    Objects.requireNonNull(exe, "exe");
    argv = List.copyOf(argv);
    Objects.requireNonNull(cgroup, "cgroup");
    mappedFiles = List.copyOf(mappedFiles);
  }

  /** This process with only the optional {@code details} kept; the others are left empty. */
  public ProcessInfo withOnly(Set<ProcessDetail> details) {
    Objects.requireNonNull(details, "details");
    if (details.contains(ProcessDetail.MAPPED_FILES) || mappedFiles.isEmpty()) {
      return this;
    }
    return new ProcessInfo(pid, exe, argv, cgroup, List.of());
  }
}
