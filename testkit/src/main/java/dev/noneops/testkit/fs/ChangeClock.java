package dev.noneops.testkit.fs;

import java.util.function.LongSupplier;

/**
 * Where the simulated inodes take their change and modification times from: the host's wall
 * clock in nanoseconds, made strictly increasing, as a kernel with fine-grained (multigrain)
 * timestamps gives them. Two changes therefore never share a time, even when the virtual clock
 * stands still between them, unless the clock is made coarse: then every change gets the time of
 * the change before it, as changes within one tick of a coarse filesystem clock do.
 */
final class ChangeClock {
  private final LongSupplier wallNanos;
  private long last = Long.MIN_VALUE;
  private boolean coarse;

  ChangeClock(LongSupplier wallNanos) {
    this.wallNanos = wallNanos;
  }

  /** The time of a change happening now. */
  synchronized long tick() {
    if (coarse && last != Long.MIN_VALUE) {
      return last;
    }
    long now = Math.max(wallNanos.getAsLong(), last + 1);
    last = now;
    return now;
  }

  synchronized void coarse(boolean coarse) {
    this.coarse = coarse;
  }
}
