package dev.noneops.hostfs.testing;

import dev.noneops.ports.time.HostClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A clock whose {@code sleep} returns at once and remembers how long it was asked to wait. */
public final class RecordingClock implements HostClock {

  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleep(Duration duration) {
    sleeps.add(duration);
  }

  public List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }
}
