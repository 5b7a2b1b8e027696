package dev.noneops.hostfs.process;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.process.Cgroups;
import java.util.List;

/**
 * The cgroups of a host that was given no cgroup root: an unavailable, empty hierarchy. A host
 * whose proc root is moved (a test's tree, a chroot) gets this unless a cgroup root is named too,
 * so nothing it does can reach the running machine's {@code /sys/fs/cgroup}.
 */
public final class NoCgroupHierarchy implements Cgroups {

  private static final String NO_ROOT = "(no cgroup root)";

  @Override
  public boolean available() {
    return false;
  }

  @Override
  public boolean exists(String cgroup) {
    return false;
  }

  @Override
  public List<String> children(String cgroup) {
    return List.of();
  }

  @Override
  public List<Long> pids(String cgroup) {
    return List.of();
  }

  @Override
  public boolean supportsKill() {
    return false;
  }

  @Override
  public void kill(String cgroup) throws HostIOException {
    throw new HostIOException(Errno.ENOENT, "kill cgroup", cgroup + " " + NO_ROOT);
  }

  @Override
  public void remove(String cgroup) throws HostIOException {
    throw new HostIOException(Errno.ENOENT, "rmdir cgroup", cgroup + " " + NO_ROOT);
  }
}
