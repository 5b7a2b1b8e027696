package dev.noneops.core.node.internal.task;

import dev.noneops.ports.time.HostClock;
import java.time.Duration;

/** A point in the host clock's monotonic time after which a wait gives up. */
public final class WaitDeadline {
  private final HostClock clock;
  private final long end;

  private WaitDeadline(HostClock clock, long end) {
    this.clock = clock;
    this.end = end;
  }

  public static WaitDeadline after(HostClock clock, Duration duration) {
    return new WaitDeadline(clock, clock.nanoTime() + duration.toNanos());
  }

  public boolean expired() {
    return clock.nanoTime() - end >= 0;
  }

  /** Sleeps for {@code poll}, or less when the deadline is nearer. */
  public void pause(Duration poll) throws InterruptedException {
    long remaining = end - clock.nanoTime();
    if (remaining > 0) {
      clock.sleep(Duration.ofNanos(Math.min(poll.toNanos(), remaining)));
    }
  }
}
