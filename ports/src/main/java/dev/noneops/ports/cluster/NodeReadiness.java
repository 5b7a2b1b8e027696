package dev.noneops.ports.cluster;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What kubelet reported about its node in the cluster: the kubelet version and boot id it posted
 * ({@code status.nodeInfo.kubeletVersion}, {@code status.nodeInfo.bootID}; {@code ""} when it
 * posted none), the status of the Node's {@code Ready} condition with its reason and message, the
 * condition's {@code lastHeartbeatTime}, and when kubelet last renewed the node's Lease ({@code
 * kube-node-lease/<node>}'s {@code spec.renewTime}), each empty when there is none.
 */
public record NodeReadiness(
    String name,
    String kubeletVersion,
    String bootId,
    Status ready,
    String readyReason,
    Optional<Instant> readyHeartbeat,
    Optional<Instant> leaseRenewed) {

  /** A condition's status; {@link #UNKNOWN} also when the Node has no {@code Ready} condition. */
  public enum Status {
    TRUE,
    FALSE,
    UNKNOWN
  }

  public NodeReadiness {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a Node needs a name");
    }
    Objects.requireNonNull(kubeletVersion, "kubeletVersion");
    Objects.requireNonNull(bootId, "bootId");
    Objects.requireNonNull(ready, "ready");
    Objects.requireNonNull(readyReason, "readyReason");
    Objects.requireNonNull(readyHeartbeat, "readyHeartbeat");
    Objects.requireNonNull(leaseRenewed, "leaseRenewed");
  }

  /** The latest sign of life: the later of the {@code Ready} heartbeat and the Lease's renewal. */
  public Optional<Instant> lastHeartbeat() {
    if (readyHeartbeat.isEmpty()) {
      return leaseRenewed;
    }
    if (leaseRenewed.isEmpty()) {
      return readyHeartbeat;
    }
    return Optional.of(
        readyHeartbeat.get().isAfter(leaseRenewed.get())
            ? readyHeartbeat.get()
            : leaseRenewed.get());
  }
}
