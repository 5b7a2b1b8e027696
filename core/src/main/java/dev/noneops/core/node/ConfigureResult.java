package dev.noneops.core.node;

import dev.noneops.core.node.internal.phases.ChangedFiles;

/**
 * What {@link Node#configure()} changed on disk, per family of files, so a running node restarts
 * only what changed.
 */
public record ConfigureResult(
    boolean containerdChanged, boolean kubeletChanged, boolean localDnsChanged) {
  public static final ConfigureResult UNCHANGED = new ConfigureResult(false, false, false);

  static ConfigureResult of(ChangedFiles changed) {
    return new ConfigureResult(changed.containerd(), changed.kubelet(), changed.localDns());
  }

  ChangedFiles files() {
    return new ChangedFiles(containerdChanged, kubeletChanged, localDnsChanged);
  }

  public boolean anyChanged() {
    return containerdChanged || kubeletChanged || localDnsChanged;
  }
}
