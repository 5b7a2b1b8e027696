package dev.noneops.testkit.gate;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One planned failure: which calls it applies to, from which matching call on and how many times
 * it fires, optionally at which internal step of the call, and what it throws.
 *
 * <p>Build with {@link #when}: {@code FaultRule.when(Calls.to("files.writeDurably")).nth(2).fail(Errno.ENOSPC)}.
 */
public final class FaultRule {
  private final Predicate<PortCall> matcher;
  private final long firstMatch;
  private final long times;
  private final Optional<String> step;
  private final Function<PortCall, Throwable> failure;
  private long matches;
  private long fired;

  private FaultRule(
      Predicate<PortCall> matcher,
      long firstMatch,
      long times,
      Optional<String> step,
      Function<PortCall, Throwable> failure) {
    this.matcher = Objects.requireNonNull(matcher, "matcher");
    if (firstMatch < 1) {
      throw new IllegalArgumentException(
          "the first matching call is counted from 1: " + firstMatch);
    }
    if (times < 1) {
      throw new IllegalArgumentException("a fault fires at least once: " + times);
    }
    this.firstMatch = firstMatch;
    this.times = times;
    this.step = Objects.requireNonNull(step, "step");
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  /** Starts a rule for the calls matching {@code matcher} (see {@link Calls}). */
  public static Builder when(Predicate<PortCall> matcher) {
    return new Builder(matcher);
  }

  /** The step this rule fires at, or empty when it fires as the call starts. */
  public Optional<String> step() {
    return step;
  }

  /** Whether this rule fires now for {@code call}; counts the match either way. */
  synchronized Optional<Throwable> consider(PortCall call) {
    if (!matcher.test(call)) {
      return Optional.empty();
    }
    matches++;
    if (matches < firstMatch || fired >= times) {
      return Optional.empty();
    }
    fired++;
    return Optional.of(failure.apply(call));
  }

  /** How many times this rule fired. */
  public synchronized long fired() {
    return fired;
  }

  /** Collects a rule's settings. */
  public static final class Builder {
    private final Predicate<PortCall> matcher;
    private long firstMatch = 1;
    private long times = Long.MAX_VALUE;
    private Optional<String> step = Optional.empty();

    private Builder(Predicate<PortCall> matcher) {
      this.matcher = Objects.requireNonNull(matcher, "matcher");
    }

    /** Fires at the {@code n}th matching call only (counted from 1, from when the rule is added). */
    public Builder nth(long n) {
      this.firstMatch = n;
      this.times = 1;
      return this;
    }

    /** Fires at every matching call from the {@code n}th on. */
    public Builder from(long n) {
      this.firstMatch = n;
      this.times = Long.MAX_VALUE;
      return this;
    }

    /** Fires at most {@code count} times. */
    public Builder times(long count) {
      this.times = count;
      return this;
    }

    /**
     * Fires at a named internal step of the call instead of at its start, e.g. {@code "write"} of
     * {@code files.writeDurably}, after the temp file exists (see {@code SimFileSystem} for the step
     * names).
     */
    public Builder atStep(String stepName) {
      this.step = Optional.of(stepName);
      return this;
    }

    /** Throws a {@link HostIOException} with {@code errno}, naming the call's method and first argument. */
    public FaultRule fail(Errno errno) {
      Objects.requireNonNull(errno, "errno");
      return failWith(call -> new HostIOException(
          errno,
          call.method(),
          call.args().isEmpty() ? call.port() : call.args().get(0)));
    }

    /** Throws what {@code failure} makes of the call. */
    public FaultRule failWith(Function<PortCall, Throwable> failure) {
      return new FaultRule(matcher, firstMatch, times, step, failure);
    }
  }
}
