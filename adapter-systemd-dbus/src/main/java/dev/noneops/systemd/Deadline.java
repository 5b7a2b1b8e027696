package dev.noneops.systemd;

import java.time.Duration;
import java.util.Objects;

/** A point in monotonic time ({@link System#nanoTime}) that a wait must not pass. */
final class Deadline {
  private final long endNanos;

  private Deadline(long endNanos) {
    this.endNanos = endNanos;
  }

  /**
   * The deadline {@code timeout} from now; a timeout too large to count in nanoseconds means "no
   * practical limit".
   *
   * @throws IllegalArgumentException when {@code timeout} is negative
   */
  static Deadline after(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    long now = System.nanoTime();
    long nanos = saturatedNanos(timeout);
    long end = now + nanos;
    return new Deadline(end - now < 0 ? Long.MAX_VALUE : end);
  }

  /** Nanoseconds left, zero once the deadline passed. */
  long remainingNanos() {
    return Math.max(0, endNanos - System.nanoTime());
  }

  boolean passed() {
    return remainingNanos() == 0;
  }

  private static long saturatedNanos(Duration timeout) {
    try {
      return timeout.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
