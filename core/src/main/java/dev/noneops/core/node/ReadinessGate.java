package dev.noneops.core.node;

import dev.noneops.core.node.internal.upgrade.Upgrade;
import java.util.Objects;

/**
 * Which readiness gate an upgrade passed: kubelet's healthz alone, or healthz and the cluster's
 * view of the Node ({@code Ready} with the target's kubelet version, this boot's id and a
 * heartbeat newer than the switch).
 *
 * @param kind the gate
 * @param detail why the gate is healthz alone (no cluster credentials, the API server unreachable
 *     before the switch), or what the cluster said; one line
 */
public record ReadinessGate(Kind kind, String detail) {

  /** The gates. */
  public enum Kind {
    /** kubelet's healthz alone. */
    HEALTHZ,
    /** kubelet's healthz and the Node object in the cluster. */
    CLUSTER
  }

  public ReadinessGate {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }

  /** The gate of a node without cluster credentials. */
  public static final ReadinessGate NO_CREDENTIALS =
      new ReadinessGate(Kind.HEALTHZ, Upgrade.NO_CREDENTIALS);

  /** Whether the cluster's view was part of the gate. */
  public boolean cluster() {
    return kind == Kind.CLUSTER;
  }
}
