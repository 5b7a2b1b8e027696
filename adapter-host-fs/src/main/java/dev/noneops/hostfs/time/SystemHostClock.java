package dev.noneops.hostfs.time;

import dev.noneops.ports.time.HostClock;
import java.time.Duration;
import java.time.Instant;

/** The host's real clocks: wall time, {@link System#nanoTime()} and {@link Thread#sleep}. */
public final class SystemHostClock implements HostClock {

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (duration.isNegative() || duration.isZero()) {
      return;
    }
    Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
  }
}
