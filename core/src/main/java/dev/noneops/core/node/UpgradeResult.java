package dev.noneops.core.node;

/**
 * A successful upgrade: the node now runs {@code targetVersion}. The journal and saved
 * configuration stay until the caller has persisted the applied config and calls commit.
 */
public record UpgradeResult(String previousVersion, String targetVersion) {
  /** Whether binaries changed, not only configuration. */
  public boolean versionChanged() {
    return !previousVersion.equals(targetVersion);
  }
}
