package dev.noneops.acceptance.machine;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** A {@link ClusterNode} that passes every call on; a test overrides the calls it acts on. */
public class ClusterNodeDelegate implements ClusterNode {
  private final ClusterNode delegate;

  public ClusterNodeDelegate(ClusterNode delegate) {
    this.delegate = delegate;
  }

  @Override
  public Optional<NodeObject> node(String node) throws IOException {
    return delegate.node(node);
  }

  @Override
  public void cordon(String node) throws IOException {
    delegate.cordon(node);
  }

  @Override
  public void uncordon(String node) throws IOException {
    delegate.uncordon(node);
  }

  @Override
  public List<PodOnNode> podsOn(String node) throws IOException {
    return delegate.podsOn(node);
  }

  @Override
  public Eviction evict(PodOnNode pod) throws IOException {
    return delegate.evict(pod);
  }

  @Override
  public boolean deleteNode(String node) throws IOException {
    return delegate.deleteNode(node);
  }

  @Override
  public Optional<NodeReadiness> readiness(String node) throws IOException {
    return delegate.readiness(node);
  }

  @Override
  public String serverVersion() throws IOException {
    return delegate.serverVersion();
  }

  @Override
  public void recordEvent(ClusterEvent event) throws IOException {
    delegate.recordEvent(event);
  }
}
