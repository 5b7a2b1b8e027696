package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.internal.stack.VersionSkew;
import dev.noneops.ports.cluster.ClusterNodeException;
import java.io.IOException;
import java.util.Optional;

/**
 * Kubernetes' version skew policy: the kubelet the node installs is no newer than the API server
 * and at most three minor versions older ({@link VersionSkew}), the API server's version read from
 * its {@code /version}. A break fails the check unless the policy is overridden ({@link
 * ClusterCheck#ignoreVersionSkew()}: a warning); an API server that cannot be asked is a warning.
 */
public final class VersionSkewCheck implements PreflightCheck {
  private final ClusterCheck cluster;
  private final String kubelet;

  public VersionSkewCheck(ClusterCheck cluster, String kubelet) {
    this.cluster = cluster;
    this.kubelet = kubelet;
  }

  @Override
  public String name() {
    return "version-skew";
  }

  @Override
  public CheckOutcome run() {
    String server;
    try {
      server = cluster.cluster().serverVersion();
    } catch (IOException | RuntimeException e) {
      boolean refused =
          e instanceof ClusterNodeException c && c.kind() == ClusterNodeException.Kind.FORBIDDEN;
      return warn(
          (refused ? "no usable cluster credentials: " : "the API server cannot be reached: ")
              + e.getMessage() + "; the version skew policy was not checked",
          "make sure kubelet " + VersionSkew.withV(kubelet) + " is no newer than the API server"
              + " and at most " + VersionSkew.MAX_MINORS_OLDER + " minor versions older");
    }
    Optional<String> violation = VersionSkew.violation(kubelet, server);
    if (violation.isEmpty()) {
      return ok("kubelet " + VersionSkew.withV(kubelet) + ", API server " + server);
    }
    if (cluster.ignoreVersionSkew()) {
      return warn(
          violation.get() + " (overridden with --ignore-version-skew)",
          "install a kubelet the API server supports");
    }
    return fail(
        violation.get(),
        "choose a Kubernetes version the policy allows, or pass --ignore-version-skew for a"
            + " disconnected install");
  }
}
