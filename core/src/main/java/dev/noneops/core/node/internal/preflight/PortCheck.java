package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.systemd.Systemd;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A port a unit of the stack binds is free: no socket of the same transport is bound to it at
 * the same address or at a wildcard one. A port held while the node's own unit is active is the
 * node's and passes.
 */
public final class PortCheck implements PreflightCheck {
  private final String name;
  private final String unit;
  private final String address;
  private final int port;
  private final List<String> transports;
  private final HostNetwork network;
  private final Systemd systemd;
  private final HostFiles files;
  private final HostPaths paths;

  /**
   * @param unit the stack's unit that binds it
   * @param address the address it binds; {@code 0.0.0.0} for every address
   */
  public PortCheck(
      String name,
      String unit,
      String address,
      int port,
      List<String> transports,
      PhaseContext parts) {
    this.name = name;
    this.unit = unit;
    this.address = address;
    this.port = port;
    this.transports = List.copyOf(transports);
    this.network = parts.ports().network();
    this.systemd = parts.ports().systemd();
    this.files = parts.ports().files();
    this.paths = parts.paths();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CheckOutcome run() throws IOException {
    String wanted = address + ":" + port + "/" + String.join("+", transports);
    List<Listener> taken = network.listeners(port).stream()
        .filter(l -> transports.contains(l.transport()) && overlaps(l))
        .toList();
    if (taken.isEmpty()) {
      return ok(wanted + " is free for " + unit);
    }
    if (systemd.status(unit).isActive()
        && ForeignStackDetector.isNodesUnitFile(files, paths.unit(unit))) {
      return ok(wanted + " is held by this node's " + unit);
    }
    String holders = taken.stream()
        .map(l -> l.address() + ":" + l.port() + "/" + l.transport())
        .distinct()
        .collect(Collectors.joining(", "));
    return fail(
        wanted + " is taken (" + holders + " bound)",
        "stop what binds port " + port + " (ss -lntup 'sport = :" + port + "' names it); " + unit
            + " needs it");
  }

  private boolean overlaps(Listener listener) {
    return listener.wildcard()
        || address.equals("0.0.0.0")
        || listener.address().equals(address);
  }
}
