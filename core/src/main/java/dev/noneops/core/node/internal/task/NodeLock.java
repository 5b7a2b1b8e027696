package dev.noneops.core.node.internal.task;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.LockWait;
import dev.noneops.core.node.NodeAbsentException;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The one exclusive lock ({@link Layout#lock()}) that serialises every mutating operation on a
 * node across processes. A second process waits for it up to its {@link LockWait} (saying once
 * which process holds it: the kernel's word, {@code /proc/locks}, never a file anyone could
 * write), then is refused with a {@link NodeBusyException} naming the holder; with no wait it is
 * refused at once. Within one process the lock is re-entrant: an upgrade that prepares a
 * version and writes configuration through operations that take the lock themselves holds it
 * once. The kernel releases it when the holder dies, so a crash never leaves the node locked.
 *
 * <p>The lock file lives in the layout, so only {@link #acquireCreatingLayout} (bootstrap, after
 * its checks) may create the layout; every other operation on a host without one is refused with
 * {@link NodeAbsentException} and leaves no trace.
 */
public final class NodeLock {
  private static final int ROOT_MODE = 0755;

  private static final Duration RETRY = Duration.ofMillis(200);

  private final HostFiles files;
  private final Layout layout;
  private final LockWait wait;
  private final Optional<HostClock> clock;
  private final Optional<ProcessTable> processes;
  /** Guards {@link #held} and {@link #depth}; private, so no caller can hold it from outside. */
  private final Object monitor = new Object();

  private HostLock held;
  private int depth;

  /** A lock that refuses at once when another process holds it. */
  public NodeLock(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.wait = LockWait.NONE;
    this.clock = Optional.empty();
    this.processes = Optional.empty();
  }

  /**
   * A lock that waits up to {@code wait} for another process to release it, on {@code clock},
   * naming the holder by its command line from {@code processes}.
   */
  public NodeLock(
      HostFiles files, Layout layout, LockWait wait, HostClock clock, ProcessTable processes) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.wait = Objects.requireNonNull(wait, "wait");
    this.clock = Optional.of(Objects.requireNonNull(clock, "clock"));
    this.processes = Optional.of(Objects.requireNonNull(processes, "processes"));
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
      held = take(operation);
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

  /** The lock, waited for up to the bound; the busy error names its holder. */
  private HostLock take(String operation) throws IOException {
    Optional<HostLock> lock = files.tryLock(layout.lock());
    if (lock.isPresent()) {
      return lock.get();
    }
    String holder = holder();
    if (wait.bound().isZero() || clock.isEmpty()) {
      throw new NodeBusyException(layout.lock(), operation, holder, Duration.ZERO);
    }
    HostClock c = clock.get();
    wait.waiting()
        .accept("waiting up to " + NodeBusyException.seconds(wait.bound()) + " for the node lock "
            + layout.lock() + ", held by " + holder);
    long deadline = c.nanoTime() + wait.bound().toNanos();
    while (true) {
      long left = deadline - c.nanoTime();
      if (left <= 0) {
        throw new NodeBusyException(layout.lock(), operation, holder(), wait.bound());
      }
      try {
        c.sleep(Duration.ofNanos(Math.min(left, RETRY.toNanos())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NodeBusyException(layout.lock(), operation, holder, wait.bound());
      }
      lock = files.tryLock(layout.lock());
      if (lock.isPresent()) {
        return lock.get();
      }
    }
  }

  /** Who holds the lock, as the kernel says: its pid and, when it can be read, its command. */
  private String holder() {
    OptionalLong pid;
    try {
      pid = files.lockHolder(layout.lock());
    } catch (IOException | RuntimeException e) {
      pid = OptionalLong.empty();
    }
    if (pid.isEmpty()) {
      return "another process";
    }
    String command = "";
    if (processes.isPresent()) {
      try {
        command = processes
            .get()
            .get(pid.getAsLong(), Set.of())
            .map(p -> String.join(" ", p.argv()))
            .orElse("");
      } catch (IOException | RuntimeException e) {
        command = "";
      }
    }
    if (command.length() > 120) {
      command = command.substring(0, 117) + "...";
    }
    return "pid " + pid.getAsLong() + (command.isBlank() ? "" : " (" + command + ")");
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
