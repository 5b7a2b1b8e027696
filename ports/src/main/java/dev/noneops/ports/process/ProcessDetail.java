package dev.noneops.ports.process;

import java.util.Set;

/**
 * A part of {@link ProcessInfo} that costs much more to read than the rest, so a caller asks for
 * it only when it needs it ({@link ProcessTable#list(Set)}, {@link ProcessTable#get(long, Set)}).
 * Pid, exe, argv and cgroup are always read; they are what identifying a process takes.
 */
public enum ProcessDetail {
  /**
   * {@link ProcessInfo#mappedFiles()}: every process's {@code /proc/<pid>/maps}, tens to hundreds
   * of lines each and by far the largest file a scan reads. Only deciding whether a file is still
   * in use (pruning a version) needs it.
   */
  MAPPED_FILES;

  /** Every detail: what {@link ProcessTable#list()} and {@link ProcessTable#get(long)} read. */
  public static Set<ProcessDetail> all() {
    return Set.of(values());
  }
}
