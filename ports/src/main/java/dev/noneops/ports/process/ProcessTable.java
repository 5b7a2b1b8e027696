package dev.noneops.ports.process;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The host's processes. A process that exits while being read is skipped, never an error.
 *
 * <p>Pid, exe, argv and cgroup are always read. The costly {@link ProcessDetail}s are read only
 * when asked for: a caller that identifies processes (teardown's shim search, ending an upgrade's
 * pods) passes no details to {@link #list(Set)}; one that asks which files are in use (pruning)
 * passes {@link ProcessDetail#MAPPED_FILES}. {@link #list()} and {@link #get(long)} read every
 * detail.
 */
public interface ProcessTable {

  /** Every process visible in the process table, ordered by pid, with every detail. */
  List<ProcessInfo> list() throws IOException;

  /**
   * Every process visible in the process table, ordered by pid, with the optional
   * {@code details} only; a detail not asked for is left empty (see {@link ProcessInfo#withOnly}).
   *
   * <p>The default reads everything through {@link #list()} and drops what was not asked for; an
   * adapter overrides it to skip reading those files at all.
   */
  default List<ProcessInfo> list(Set<ProcessDetail> details) throws IOException {
    Objects.requireNonNull(details, "details");
    return list().stream().map(p -> p.withOnly(details)).toList();
  }

  /** One process with every detail; empty when it does not exist (any more). */
  Optional<ProcessInfo> get(long pid) throws IOException;

  /**
   * One process with the optional {@code details} only (as {@link #list(Set)}); empty when it
   * does not exist (any more).
   */
  default Optional<ProcessInfo> get(long pid, Set<ProcessDetail> details) throws IOException {
    Objects.requireNonNull(details, "details");
    return get(pid).map(p -> p.withOnly(details));
  }

  /** This process: the one calling the port. */
  ProcessIdentity self() throws IOException;

  /**
   * The identity of the process {@code pid} (its start time tells it from a later process that
   * reuses the pid); empty when no such process exists.
   */
  Optional<ProcessIdentity> identity(long pid) throws IOException;

  /**
   * Sends {@code signal} to {@code pid}. Returns false when the process no longer exists
   * (ESRCH); other failures (EPERM) are errors.
   */
  boolean signal(long pid, int signal) throws IOException;
}
