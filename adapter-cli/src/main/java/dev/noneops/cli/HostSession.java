package dev.noneops.cli;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.HostPorts;
import java.util.Objects;

/**
 * A connection to one host for the length of one command: its ports, where the agent's layout
 * and the shared host paths are, and what to release at the end (a D-Bus connection).
 */
public final class HostSession implements AutoCloseable {
  private final HostPorts ports;
  private final Layout layout;
  private final HostPaths paths;
  private final AutoCloseable onClose;

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
