package dev.noneops.cli;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.HostPorts;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A connection to one host for the length of one command: its ports, where the agent's layout
 * and the shared host paths are, what to release at the end (a D-Bus connection), and how the
 * daemon reaches the node's cluster (none unless the wiring says, as on a simulated host).
 */
public final class HostSession implements AutoCloseable {
  private final HostPorts ports;
  private final Layout layout;
  private final HostPaths paths;
  private final AutoCloseable onClose;
  private Supplier<Optional<ClusterClients>> cluster = Optional::empty;

  public HostSession(HostPorts ports, Layout layout, HostPaths paths, AutoCloseable onClose) {
    this.ports = Objects.requireNonNull(ports, "ports");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
  }

  /** A session with nothing to release, for hosts that live longer than one command (a simulated host). */
  public static HostSession unmanaged(HostPorts ports, Layout layout, HostPaths paths) {
    return new HostSession(ports, layout, paths, () -> {});
  }

  /**
   * This session with {@code opener} making the daemon's clients of the node's cluster.
   *
   * @return this session
   */
  public HostSession withCluster(Supplier<Optional<ClusterClients>> opener) {
    this.cluster = Objects.requireNonNull(opener, "opener");
    return this;
  }

  /** The daemon's clients of the node's cluster; empty when this host has none. */
  public Optional<ClusterClients> openCluster() {
    return cluster.get();
  }

  public HostPorts ports() {
    return ports;
  }

  public Layout layout() {
    return layout;
  }

  public HostPaths paths() {
    return paths;
  }

  @Override
  public void close() {
    try {
      onClose.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot release the host connection: " + e.getMessage(), e);
    }
  }
}
