package dev.noneops.core.node;

import dev.noneops.ports.cluster.ClusterNode;
import java.time.Duration;
import java.util.Objects;

/**
 * The node's view of its cluster, with kubelet's credentials: what makes an upgrade's readiness
 * gate include the cluster's view and what the version skew policy reads (docs/concepts/safety.md,
 * "Healthy means the cluster says so").
 *
 * @param cluster the API server, through kubelet's kubeconfig or its bootstrap kubeconfig
 * @param readyWithin how long after the switch the Node may take to be {@code Ready} with the
 *     target's kubelet version, this boot's id and a heartbeat newer than the switch
 * @param ignoreVersionSkew whether a kubelet the version skew policy refuses is installed all the
 *     same (a warning instead of a refusal), for a disconnected install
 */
public record ClusterCheck(ClusterNode cluster, Duration readyWithin, boolean ignoreVersionSkew) {
  /** How long the Node may take to be Ready after the switch unless configured otherwise. */
  public static final Duration DEFAULT_READY_WITHIN = Duration.ofMinutes(5);

  public ClusterCheck {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(readyWithin, "readyWithin");
    if (readyWithin.isNegative() || readyWithin.isZero()) {
      throw new IllegalArgumentException("readyWithin must be positive: " + readyWithin);
    }
  }

  /** {@code cluster} with the default bound, the version skew policy enforced. */
  public static ClusterCheck of(ClusterNode cluster) {
    return new ClusterCheck(cluster, DEFAULT_READY_WITHIN, false);
  }

  /** This check with the bound {@code readyWithin}. */
  public ClusterCheck withReadyWithin(Duration readyWithin) {
    return new ClusterCheck(cluster, readyWithin, ignoreVersionSkew);
  }

  /** This check with the version skew policy a warning only. */
  public ClusterCheck ignoringVersionSkew(boolean ignore) {
    return new ClusterCheck(cluster, readyWithin, ignore);
  }
}
