package dev.noneops.testkit.time;

import dev.noneops.ports.time.HostClock;
import dev.noneops.testkit.gate.PortGate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * A {@link HostClock} on virtual time: {@link #sleep} advances time at once instead of blocking,
 * so bounded waits of minutes run in microseconds and deterministically. Sleeps are journaled
 * (reads of the time are not, they would drown the journal).
 */
public final class VirtualClock implements HostClock {
  /** The instant a fresh simulated host starts at. */
  public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  private final PortGate gate;
  private Instant now = EPOCH;
  private long nanos = 1_000_000_000L;
  private final List<Scheduled> scheduled = new ArrayList<>();

  /** An action the test has happen once the clock reaches {@code at} (monotonic nanos). */
  private record Scheduled(long at, Runnable action) {}

  public VirtualClock(PortGate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  @Override
  public Instant now() {
    synchronized (gate.monitor()) {
      return now;
    }
  }

  @Override
  public long nanoTime() {
    synchronized (gate.monitor()) {
      return nanos;
    }
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("cannot sleep a negative duration: " + duration);
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before sleeping " + duration);
    }
    gate.callUnchecked("clock", "sleep", false, PortGate.args(duration), () -> {
      advance(duration);
      return null;
    });
  }

  /** Moves time forward by {@code duration} (not journaled: the test, not the code under test, does it). */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time only moves forward: " + duration);
    }
    List<Runnable> due = new ArrayList<>();
    synchronized (gate.monitor()) {
      now = now.plus(duration);
      nanos += duration.toNanos();
      for (Iterator<Scheduled> i = scheduled.iterator(); i.hasNext(); ) {
        Scheduled s = i.next();
        if (s.at() <= nanos) {
          due.add(s.action());
          i.remove();
        }
      }
    }
    due.forEach(Runnable::run);
  }

  /**
   * Has {@code action} happen (on the thread that moves the clock) once time has moved {@code
   * after} past now: another process's doing while the code under test sleeps, say.
   */
  public void schedule(Duration after, Runnable action) {
    Objects.requireNonNull(action, "action");
    if (after.isNegative()) {
      throw new IllegalArgumentException("cannot schedule in the past: " + after);
    }
    synchronized (gate.monitor()) {
      scheduled.add(new Scheduled(nanos + after.toNanos(), action));
    }
  }

  /** Time elapsed since the host started, on the monotonic clock. */
  public Duration elapsed() {
    return Duration.ofNanos(nanoTime() - 1_000_000_000L);
  }
}
