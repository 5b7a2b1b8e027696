package dev.noneops.testkit.gate;

import dev.noneops.ports.Errno;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The failures planned for the simulated host's ports: error rules ({@link FaultRule}) and at
 * most one armed crash. Counting starts when a rule is added or a crash is armed.
 */
public final class Faults {
  private final CallJournal journal;
  private final List<FaultRule> rules = new ArrayList<>();
  private OptionalLong crashAtPoint = OptionalLong.empty();
  private OptionalLong crashAtMutatingCall = OptionalLong.empty();
  private long pointsSinceArmed;
  private long mutatingCallsSinceArmed;

  Faults(CallJournal journal) {
    this.journal = journal;
  }

  /** Adds a rule; rules are consulted in the order they were added, the first that fires wins. */
  public synchronized FaultRule add(FaultRule rule) {
    rules.add(rule);
    return rule;
  }

  /** Fails the {@code n}th call matching {@code matcher} (from now) with {@code errno}. */
  public FaultRule failNth(Predicate<PortCall> matcher, long n, Errno errno) {
    return add(FaultRule.when(matcher).nth(n).fail(errno));
  }

  /** Fails every call matching {@code matcher} with {@code errno}. */
  public FaultRule failEvery(Predicate<PortCall> matcher, Errno errno) {
    return add(FaultRule.when(matcher).fail(errno));
  }

  /** Fails the {@code n}th port call of any kind (from now) with {@code errno}. */
  public FaultRule failNthCall(long n, Errno errno) {
    return failNth(Calls.any(), n, errno);
  }

  /**
   * Arms a crash at the {@code n}th crash point from now (see {@link CallJournal#crashPointCount()}):
   * the port throws {@link SimulatedCrash} there, possibly between the internal steps of a call.
   */
  public synchronized void crashAtCrashPoint(long n) {
    requirePositive(n);
    disarmCrash();
    crashAtPoint = OptionalLong.of(n);
  }

  /** Arms a crash as the {@code n}th mutating call from now starts, before it changes anything. */
  public synchronized void crashAtMutatingCall(long n) {
    requirePositive(n);
    disarmCrash();
    crashAtMutatingCall = OptionalLong.of(n);
  }

  /** Removes an armed crash. */
  public synchronized void disarmCrash() {
    crashAtPoint = OptionalLong.empty();
    crashAtMutatingCall = OptionalLong.empty();
    pointsSinceArmed = 0;
    mutatingCallsSinceArmed = 0;
  }

  /** Removes every rule and the armed crash. */
  public synchronized void clear() {
    rules.clear();
    disarmCrash();
  }

  /** The journal these faults count against. */
  public CallJournal journal() {
    return journal;
  }

  synchronized Optional<Throwable> failureFor(PortCall call, Optional<String> step) {
    for (FaultRule rule : rules) {
      if (rule.step().equals(step)) {
        Optional<Throwable> failure = rule.consider(call);
        if (failure.isPresent()) {
          return failure;
        }
      }
    }
    return Optional.empty();
  }

  /** Counts a crash point; returns its number when the armed crash fires there. */
  synchronized OptionalLong passCrashPoint(boolean startOfMutatingCall) {
    journal.countCrashPoint();
    pointsSinceArmed++;
    if (startOfMutatingCall) {
      mutatingCallsSinceArmed++;
    }
    if (crashAtPoint.isPresent() && pointsSinceArmed == crashAtPoint.getAsLong()) {
      long point = pointsSinceArmed;
      disarmCrash();
      return OptionalLong.of(point);
    }
    if (startOfMutatingCall
        && crashAtMutatingCall.isPresent()
        && mutatingCallsSinceArmed == crashAtMutatingCall.getAsLong()) {
      long point = pointsSinceArmed;
      disarmCrash();
      return OptionalLong.of(point);
    }
    return OptionalLong.empty();
  }

  private static void requirePositive(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("crash points and calls are counted from 1: " + n);
    }
  }
}
