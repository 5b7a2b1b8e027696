package dev.noneops.ports.files;

/**
 * An exclusive advisory lock on a file, held until {@link #close()}. Released by the kernel when
 * the holding process dies, so a crashed agent never leaves a node locked.
 */
public interface HostLock extends AutoCloseable {
  @Override
  void close();
}
