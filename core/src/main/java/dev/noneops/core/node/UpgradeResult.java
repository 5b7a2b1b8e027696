package dev.noneops.core.node;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A successful upgrade: the node now runs {@code targetVersion}. The journal and saved
 * configuration stay until the caller has persisted the applied config and calls commit. {@code
 * disowned} lists the shared paths the upgrade found replaced by something else and stopped
 * owning (left as they are). {@code gate} says which readiness gate the target passed: kubelet's
 * healthz alone, or with the cluster's view of the Node.
 */
public record UpgradeResult(
    String previousVersion, String targetVersion, List<Path> disowned, ReadinessGate gate) {
  public UpgradeResult {
    disowned = List.copyOf(disowned);
    Objects.requireNonNull(gate, "gate");
  }

  /** Whether binaries changed, not only configuration. */
  public boolean versionChanged() {
    return !previousVersion.equals(targetVersion);
  }
}
