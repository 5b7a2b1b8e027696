package dev.noneops.core.upgrade;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * The one exclusive lock ({@link Layout#lock()}) that serialises every mutating operation on a
 * node across processes. A second process is refused at once with a {@link NodeBusyException}
 * instead of waiting. Within one process the lock is re-entrant: an upgrade that prepares a
 * version and writes configuration through operations that take the lock themselves holds it
 * once. The kernel releases it when the holder dies, so a crash never leaves the node locked.
 */
public final class NodeLock {
  private static final int ROOT_MODE = 0755;

  private final HostFiles files;
  private final Layout layout;
  private HostLock held;
  private int depth;

  public NodeLock(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /** A hold of the lock, released by {@link #close()}. */
  public interface Hold extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes the lock for {@code operation} (named in the busy error), creating the layout directory
   * when it does not exist yet.
   *
   * @throws NodeBusyException when another process holds it
   */
  public synchronized Hold acquire(String operation) throws IOException {
    Objects.requireNonNull(operation, "operation");
    if (depth == 0) {
      if (!files.exists(layout.root())) {
        files.createDirectories(layout.root(), ROOT_MODE);
      }
      Optional<HostLock> lock = files.tryLock(layout.lock());
      if (lock.isEmpty()) {
        throw new NodeBusyException(layout.lock(), operation);
      }
      held = lock.get();
    }
    depth++;
    return new Hold() {
      private boolean closed;

      @Override
      public void close() {
        synchronized (NodeLock.this) {
          if (!closed) {
            closed = true;
            release();
          }
        }
      }
    };
  }

  /** Whether this process holds the lock. */
  public synchronized boolean isHeld() {
    return depth > 0;
  }

  private void release() {
    depth--;
    if (depth == 0) {
      HostLock lock = held;
      held = null;
      lock.close();
    }
  }
}
