package dev.noneops.core.node;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;

/**
 * The one exclusive lock ({@link Layout#lock()}) that serialises every mutating operation on a
 * node across processes. A second process is refused at once with a {@link NodeBusyException}
 * instead of waiting. Within one process the lock is re-entrant: an upgrade that prepares a
 * version and writes configuration through operations that take the lock themselves holds it
 * once. The kernel releases it when the holder dies, so a crash never leaves the node locked.
 *
 * <p>The lock file lives in the layout, so only {@link #acquireCreatingLayout} (bootstrap, after
 * its checks) may create the layout; every other operation on a host without one is refused with
 * {@link NodeAbsentException} and leaves no trace.
 */
final class NodeLock {
  private static final int ROOT_MODE = 0755;

  private final HostFiles files;
  private final Layout layout;
  /** Guards {@link #held} and {@link #depth}; private, so no caller can hold it from outside. */
  private final Object monitor = new Object();

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
   * Takes the lock for {@code operation} (named in the errors) on an existing node.
   *
   * @throws NodeAbsentException when the layout does not exist (nothing is created)
   * @throws NodeBusyException when another process holds it
   */
  public Hold acquire(String operation) throws IOException {
    return acquire(operation, false);
  }

  /**
   * Takes the lock for {@code operation}, creating the layout directory when it does not exist
   * yet: for the first install only, once it has checked the host.
   *
   * @throws NodeBusyException when another process holds it
   */
  public Hold acquireCreatingLayout(String operation) throws IOException {
    return acquire(operation, true);
  }

  private Hold acquire(String operation, boolean createLayout) throws IOException {
    Objects.requireNonNull(operation, "operation");
    synchronized (monitor) {
      return acquireHeld(createLayout, operation);
    }
  }

  private Hold acquireHeld(boolean createLayout, String operation) throws IOException {
    if (depth == 0) {
      if (!files.exists(layout.root())) {
        if (!createLayout) {
          throw new NodeAbsentException(layout.root(), operation);
        }
        createLayout();
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
        synchronized (monitor) {
          if (!closed) {
            closed = true;
            release();
          }
        }
      }
    };
  }

  /** Creates the layout, noting durably which of its parents did not exist before. */
  private void createLayout() throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = layout.root().getParent(); p != null && !files.exists(p); p = p.getParent()) {
      missing.push(p);
    }
    files.createDirectories(layout.root(), ROOT_MODE);
    if (!missing.isEmpty()) {
      StringBuilder note = new StringBuilder();
      missing.forEach(p -> note.append(p).append('\n'));
      files.writeDurably(layout.createdParents(), note.toString(), 0644);
    }
  }

  /** Whether this process holds the lock. */
  public boolean isHeld() {
    synchronized (monitor) {
      return depth > 0;
    }
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
