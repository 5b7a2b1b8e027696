package dev.noneops.cli;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link ClusterNode} made at its first call, not before: a node's operations that never ask the
 * cluster (a daemon's start-up recovery with nothing to recover, the daemon's answers to {@code
 * status}) build no client, load none of the Kubernetes client's classes and start none of its
 * threads. The client made is kept for the later calls.
 */
final class LazyClusterNode implements ClusterNode {
  private final Supplier<ClusterNode> open;
  private ClusterNode opened;

  LazyClusterNode(Supplier<ClusterNode> open) {
    this.open = Objects.requireNonNull(open, "open");
  }

  /** Whether a call has made the client. */
  synchronized boolean opened() {
    return opened != null;
  }

  private synchronized ClusterNode cluster() {
    if (opened == null) {
      opened = Objects.requireNonNull(open.get(), "the cluster's client");
    }
    return opened;
  }

  @Override
  public Optional<NodeObject> node(String node) throws IOException {
    return cluster().node(node);
  }

  @Override
  public void cordon(String node) throws IOException {
    cluster().cordon(node);
  }

  @Override
  public void uncordon(String node) throws IOException {
    cluster().uncordon(node);
  }

  @Override
  public List<PodOnNode> podsOn(String node) throws IOException {
    return cluster().podsOn(node);
  }

  @Override
  public Eviction evict(PodOnNode pod) throws IOException {
    return cluster().evict(pod);
  }

  @Override
  public boolean deleteNode(String node) throws IOException {
    return cluster().deleteNode(node);
  }

  @Override
  public Optional<NodeReadiness> readiness(String node) throws IOException {
    return cluster().readiness(node);
  }

  @Override
  public String serverVersion() throws IOException {
    return cluster().serverVersion();
  }

  @Override
  public void recordEvent(ClusterEvent event) throws IOException {
    cluster().recordEvent(event);
  }
}
