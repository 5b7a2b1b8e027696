package dev.noneops.core.node;

import dev.noneops.ports.time.HostClock;
import java.time.Duration;

/** A point in the host clock's monotonic time after which a wait gives up. */
final class Deadline {
  private final HostClock clock;
  private final long end;

  private Deadline(HostClock clock, long end) {
    this.clock = clock;
    this.end = end;
  }

  static Deadline after(HostClock clock, Duration duration) {
    return new Deadline(clock, clock.nanoTime() + duration.toNanos());
  }

  boolean expired() {
    return clock.nanoTime() - end >= 0;
  }

  /** Sleeps for {@code poll}, or less when the deadline is nearer. */
  void pause(Duration poll) throws InterruptedException {
    long remaining = end - clock.nanoTime();
    if (remaining > 0) {
      clock.sleep(Duration.ofNanos(Math.min(poll.toNanos(), remaining)));
    }
  }
}
