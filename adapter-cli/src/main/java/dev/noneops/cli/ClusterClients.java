package dev.noneops.cli;

import dev.noneops.core.daemon.NodeDaemon;

/**
 * The daemon's clients of the node's cluster (see {@link NodeDaemon.Cluster}), with the
 * connections they hold, released by {@link #close()} when the daemon stops.
 */
public interface ClusterClients extends NodeDaemon.Cluster, AutoCloseable {
  @Override
  void close();
}
