package dev.noneops.ports.cluster;

import java.util.Objects;

/** How the API server answered an eviction, with its words ({@code ""} when it said nothing). */
public record Eviction(Outcome outcome, String message) {

  /** The answers a drain expects. */
  public enum Outcome {
    /** The eviction was accepted: the pod is being deleted (it may take its grace period). */
    EVICTED,
    /**
     * A PodDisruptionBudget allows no disruption now ({@code 429 Too Many Requests}): the pod
     * stays; the eviction may succeed later.
     */
    REFUSED_BY_DISRUPTION_BUDGET,
    /** There is no such pod (any more). */
    POD_GONE
  }

  public Eviction {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(message, "message");
  }
}
