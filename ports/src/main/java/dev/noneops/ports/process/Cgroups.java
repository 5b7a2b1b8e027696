package dev.noneops.ports.process;

import java.io.IOException;
import java.util.List;

/**
 * The cgroup v2 hierarchy. Paths are relative to the hierarchy's root and start with {@code /},
 * e.g. {@code /kubepods.slice}.
 */
public interface Cgroups {

  /** Whether a unified (v2) hierarchy is available at all. */
  boolean available();

  boolean exists(String cgroup) throws IOException;

  /** The direct child cgroups' paths, sorted. */
  List<String> children(String cgroup) throws IOException;

  /** The pids in {@code cgroup.procs} of this cgroup alone (not its children). */
  List<Long> pids(String cgroup) throws IOException;

  /** Whether {@code cgroup.kill} exists (Linux 5.14+). */
  boolean supportsKill() throws IOException;

  /** Writes {@code 1} to {@code cgroup.kill}: SIGKILL to every process in the subtree. */
  void kill(String cgroup) throws IOException;

  /** Removes an empty cgroup (rmdir). EBUSY while it still has processes or children. */
  void remove(String cgroup) throws IOException;
}
