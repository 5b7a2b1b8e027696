package dev.noneops.testkit.machine;

import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One node's connection to a {@link SimClusterApi}: the {@link ClusterNode} port, with the
 * API requests it made counted.
 */
public final class SimClusterNode implements ClusterNode {
  private final SimClusterApi api;
  private final AtomicLong requests = new AtomicLong();

  SimClusterNode(SimClusterApi api) {
    this.api = api;
  }

  /** The API requests this client has made. */
  public long requests() {
    return requests.get();
  }

  @Override
  public Optional<NodeObject> node(String node) throws IOException {
    requests.incrementAndGet();
    return api.readNode(node);
  }

  @Override
  public void cordon(String node) throws IOException {
    requests.incrementAndGet();
    api.setUnschedulable(node, true);
  }

  @Override
  public void uncordon(String node) throws IOException {
    requests.incrementAndGet();
    api.setUnschedulable(node, false);
  }

  @Override
  public List<PodOnNode> podsOn(String node) throws IOException {
    requests.incrementAndGet();
    return api.listPods(node);
  }

  @Override
  public Eviction evict(PodOnNode pod) throws IOException {
    requests.incrementAndGet();
    return api.evict(pod);
  }

  @Override
  public boolean deleteNode(String node) throws IOException {
    requests.incrementAndGet();
    return api.removeNode(node);
  }

  @Override
  public Optional<NodeReadiness> readiness(String node) throws IOException {
    requests.incrementAndGet();
    return api.readReadiness(node);
  }

  @Override
  public String serverVersion() throws IOException {
    requests.incrementAndGet();
    return api.readServerVersion();
  }

  @Override
  public void recordEvent(ClusterEvent event) throws IOException {
    requests.incrementAndGet();
    api.createEvent(event);
  }
}
