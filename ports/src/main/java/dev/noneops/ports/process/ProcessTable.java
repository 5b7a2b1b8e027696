package dev.noneops.ports.process;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The host's processes. A process that exits while being read is skipped, never an error.
 */
public interface ProcessTable {

  /** Every process visible in the process table, ordered by pid. */
  List<ProcessInfo> list() throws IOException;

  /** One process; empty when it does not exist (any more). */
  Optional<ProcessInfo> get(long pid) throws IOException;

  /**
   * Sends {@code signal} to {@code pid}. Returns false when the process no longer exists
   * (ESRCH); other failures (EPERM) are errors.
   */
  boolean signal(long pid, int signal) throws IOException;
}
