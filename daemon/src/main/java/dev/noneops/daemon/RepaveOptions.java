package dev.noneops.daemon;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of a repave's waits on the cluster.
 *
 * @param drain how long the drain may take: evictions a PodDisruptionBudget refuses are retried,
 *     and evicted pods waited for, until then; past it the repave is reported Failed naming the
 *     pods that blocked it, the node is uncordoned and nothing on the host changes
 * @param registration how long kubelet may take to register the node's Node object again after
 *     the upgrade or apply
 * @param poll how often the drain and the wait for the registration ask again
 */
public record RepaveOptions(Duration drain, Duration registration, Duration poll) {

  /** A five-minute drain, five minutes for the registration, asked every five seconds. */
  public static final RepaveOptions DEFAULTS =
      new RepaveOptions(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(5));

  public RepaveOptions {
    for (Duration d : new Duration[] {drain, registration, poll}) {
      Objects.requireNonNull(d, "timeout");
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("repave timeouts must be positive: " + d);
      }
    }
  }
}
