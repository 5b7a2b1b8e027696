package dev.noneops.core.node;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds and switches of a teardown. Every wait is bounded, so a teardown on a sick host
 * ends with a report instead of hanging.
 *
 * @param unitStopTimeout how long one unit may take to stop before its processes are killed
 * @param processDeadline how long killed shims may take to disappear
 * @param cgroupDeadline how long a pod cgroup subtree may take to empty and be removed
 * @param unmountDeadline how long one busy mount is retried before it is given up (or detached)
 * @param pollInterval the pause between re-checks while waiting
 * @param lazyUnmount whether a mount that stays busy is detached ({@code MNT_DETACH}) as a last
 *     resort. Off by default: a detached mount disappears from the namespace but keeps its
 *     filesystem alive for whoever still uses it, which an operator should choose knowingly
 */
public record TeardownOptions(
    Duration unitStopTimeout,
    Duration processDeadline,
    Duration cgroupDeadline,
    Duration unmountDeadline,
    Duration pollInterval,
    boolean lazyUnmount) {

  public TeardownOptions {
    requirePositive(unitStopTimeout, "unitStopTimeout");
    requirePositive(processDeadline, "processDeadline");
    requirePositive(cgroupDeadline, "cgroupDeadline");
    requirePositive(unmountDeadline, "unmountDeadline");
    requirePositive(pollInterval, "pollInterval");
  }

  /** 90 s per unit, 10 s for shims, 30 s for cgroups, 10 s per mount, 100 ms polls, no lazy unmount. */
  public static TeardownOptions defaults() {
    return new TeardownOptions(
        Duration.ofSeconds(90),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(10),
        Duration.ofMillis(100),
        false);
  }

  public TeardownOptions withLazyUnmount(boolean lazy) {
    return new TeardownOptions(
        unitStopTimeout, processDeadline, cgroupDeadline, unmountDeadline, pollInterval, lazy);
  }

  public TeardownOptions withUnmountDeadline(Duration deadline) {
    return new TeardownOptions(
        unitStopTimeout, processDeadline, cgroupDeadline, deadline, pollInterval, lazyUnmount);
  }

  public TeardownOptions withProcessDeadline(Duration deadline) {
    return new TeardownOptions(
        unitStopTimeout, deadline, cgroupDeadline, unmountDeadline, pollInterval, lazyUnmount);
  }

  public TeardownOptions withCgroupDeadline(Duration deadline) {
    return new TeardownOptions(
        unitStopTimeout, processDeadline, deadline, unmountDeadline, pollInterval, lazyUnmount);
  }

  public TeardownOptions withUnitStopTimeout(Duration timeout) {
    return new TeardownOptions(
        timeout, processDeadline, cgroupDeadline, unmountDeadline, pollInterval, lazyUnmount);
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }
}
