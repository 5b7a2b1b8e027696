package dev.noneops.core.node;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Node#reset()} would do on the host as it is now, read without changing anything
 * ({@link Node#resetPlan()}): whether a node is there and each step, in the reset's order, as the
 * action the reset reports when it takes it. A reset removes a shared file only when it is still
 * what the node wrote, and keeps what something else holds (a mount, a foreign shim); what it
 * then keeps is in its own report.
 *
 * @param present whether a node is installed here (else only what a refused bootstrap left is
 *     removed)
 * @param steps what the reset would stop, remove or put back, in order
 */
public record ResetPlan(boolean present, List<TeardownResult.Removed> steps) {
  public ResetPlan {
    Objects.requireNonNull(steps, "steps");
    steps = List.copyOf(steps);
  }
}
