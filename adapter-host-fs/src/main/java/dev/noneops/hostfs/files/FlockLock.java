package dev.noneops.hostfs.files;

import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.files.HostLock;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An exclusive {@code flock(2)} held through an open descriptor until {@link #close()}. Unlike a
 * POSIX record lock, it belongs to the open file description: closing some other descriptor of the
 * same file in this process does not release it, and a second {@code open} in this process
 * conflicts with it just as another process would.
 */
final class FlockLock implements HostLock {

  private final Syscalls syscalls;
  private final Path file;
  private final int fd;
  private final AtomicBoolean open = new AtomicBoolean(true);

  FlockLock(Syscalls syscalls, Path file, int fd) {
    this.syscalls = syscalls;
    this.file = file;
    this.fd = fd;
  }

  @Override
  public void close() {
    if (open.compareAndSet(true, false)) {
      syscalls.close(fd);
    }
  }

  @Override
  public String toString() {
    return "lock on " + file + (open.get() ? "" : " (released)");
  }
}
