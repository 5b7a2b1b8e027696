package dev.noneops.testkit.fs;

import java.util.function.LongSupplier;

/**
 * Where the simulated inodes take their change and modification times from: the host's wall
 * clock in nanoseconds, made strictly increasing, as a kernel with fine-grained (multigrain)
 * timestamps gives them. Two changes therefore never share a time, even when the virtual clock
 * stands still between them.
 */
final class ChangeClock {
  private final LongSupplier wallNanos;
  private long last = Long.MIN_VALUE;

  ChangeClock(LongSupplier wallNanos) {
    this.wallNanos = wallNanos;
  }

  /** The time of a change happening now. */
  synchronized long tick() {
    long now = Math.max(wallNanos.getAsLong(), last + 1);
    last = now;
    return now;
  }
}
