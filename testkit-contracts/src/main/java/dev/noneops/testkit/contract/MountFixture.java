package dev.noneops.testkit.contract;

import java.nio.file.Path;

/**
 * How a contract suite's fixture creates mounts: a real adapter's fixture mounts in a private mount
 * namespace, the simulated host's in memory.
 */
public interface MountFixture {
  /** Mounts a fresh, empty filesystem (a tmpfs, say) on the existing directory {@code at}. */
  void mountFilesystem(Path at) throws Exception;

  /** Bind-mounts the existing directory {@code source} on the existing directory {@code at}. */
  void bindMount(Path source, Path at) throws Exception;

  /** Keeps the mount at {@code mountPoint} busy (a file held open on it) until the result is closed. */
  AutoCloseable keepBusy(Path mountPoint) throws Exception;
}
