package dev.noneops.ports.time;

import java.time.Duration;
import java.time.Instant;

/**
 * Time, as a port: core never reads the system clock or sleeps by itself, so tests control time
 * and bounded waits are deterministic.
 */
public interface HostClock {

  /** Wall-clock now. */
  Instant now();

  /** A monotonic reading for measuring durations; only differences are meaningful. */
  long nanoTime();

  /** Blocks for {@code duration}. */
  void sleep(Duration duration) throws InterruptedException;
}
