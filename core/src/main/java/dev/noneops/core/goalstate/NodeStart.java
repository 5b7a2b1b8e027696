package dev.noneops.core.goalstate;

import java.util.Objects;

/** How the node's stack is configured and started. */
public record NodeStart(
    ContainerdSpec containerd, KubeletSpec kubelet, LocalDnsSpec localDns, boolean gpu) {
  public NodeStart {
    Objects.requireNonNull(containerd, "containerd");
    Objects.requireNonNull(kubelet, "kubelet");
    Objects.requireNonNull(localDns, "localDns");
  }
}
