package dev.noneops.cli;

import dev.noneops.daemon.NodeDaemon;
import dev.noneops.ports.cluster.ClusterNode;
import java.net.URI;
import java.util.Optional;

/**
 * The daemon's clients of the node's cluster (see {@link NodeDaemon.Cluster}), with the
 * connections they hold, released by {@link #close()} when the daemon stops.
 */
public interface ClusterClients extends NodeDaemon.Cluster, AutoCloseable {
  @Override
  void close();

  /**
   * A client of the API server at {@code apiServer} with the cluster CA {@code caPem} and, when not
   * {@code ""}, the bearer token {@code token}: what a node that has no kubeconfig of kubelet's yet
   * (before its bootstrap) asks the API server's version with. Closed with these clients; empty
   * when this host's wiring has none.
   */
  default Optional<ClusterNode> configured(URI apiServer, String caPem, String token) {
    return Optional.empty();
  }
}
