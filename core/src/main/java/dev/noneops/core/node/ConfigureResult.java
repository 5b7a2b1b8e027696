package dev.noneops.core.node;

/**
 * What {@link Node#configure()} changed on disk, per family of files, so a running node restarts
 * only what changed.
 */
public record ConfigureResult(
    boolean containerdChanged, boolean kubeletChanged, boolean localDnsChanged) {
  public static final ConfigureResult UNCHANGED = new ConfigureResult(false, false, false);

  public boolean anyChanged() {
    return containerdChanged || kubeletChanged || localDnsChanged;
  }
}
