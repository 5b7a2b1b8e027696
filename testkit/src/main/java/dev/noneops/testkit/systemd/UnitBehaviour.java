package dev.noneops.testkit.systemd;

import java.time.Duration;
import java.util.Objects;

/**
 * How a simulated unit reacts to a start, scripted by a test: normally, failing at once, becoming
 * active and failing later, or never becoming ready.
 */
public sealed interface UnitBehaviour {

  /** Starts and stays active. */
  UnitBehaviour NORMAL = new Normal();

  /** Every start fails: the job ends {@code failed} and the unit is left in the failed state. */
  static UnitBehaviour failsToStart() {
    return new FailsToStart();
  }

  /** Starts and becomes active, then its main process dies {@code after} later (virtual time). */
  static UnitBehaviour activeThenFailsAfter(Duration after) {
    return new ActiveThenFails(after);
  }

  /** Never reports ready: the unit stays {@code activating}, a start job waits until its timeout. */
  static UnitBehaviour hangsActivating() {
    return new HangsActivating();
  }

  /** See {@link #NORMAL}. */
  record Normal() implements UnitBehaviour {}

  /** See {@link #failsToStart()}. */
  record FailsToStart() implements UnitBehaviour {}

  /** See {@link #activeThenFailsAfter(Duration)}. */
  record ActiveThenFails(Duration after) implements UnitBehaviour {
    public ActiveThenFails {
      Objects.requireNonNull(after, "after");
      if (after.isNegative()) {
        throw new IllegalArgumentException("a unit cannot fail before it started: " + after);
      }
    }
  }

  /** See {@link #hangsActivating()}. */
  record HangsActivating() implements UnitBehaviour {}
}
