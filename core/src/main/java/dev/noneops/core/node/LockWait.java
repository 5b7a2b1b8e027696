package dev.noneops.core.node;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How long an operation waits for the node lock another process holds before it gives up with
 * {@link NodeBusyException}, as {@code apt} waits for its lock; zero refuses at once (the
 * daemon's way: it tries again at its next tick).
 *
 * @param bound how long to wait; zero or positive
 * @param waiting told once, with one line naming the holder, when the operation starts to wait
 */
public record LockWait(Duration bound, Consumer<String> waiting) {
  /** Refuses at once. */
  public static final LockWait NONE = new LockWait(Duration.ZERO, line -> {});

  /** The bound the CLI waits by default. */
  public static final Duration DEFAULT_BOUND = Duration.ofSeconds(60);

  public LockWait {
    Objects.requireNonNull(bound, "bound");
    Objects.requireNonNull(waiting, "waiting");
    if (bound.isNegative()) {
      throw new IllegalArgumentException("the lock wait must not be negative: " + bound);
    }
  }
}
