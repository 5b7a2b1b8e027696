package dev.noneops.cli.wiring;

import dev.noneops.cli.HostConnector;
import dev.noneops.cli.HostSession;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.hostfs.RealHost;
import dev.noneops.systemd.DbusSystemd;
import java.util.function.Supplier;

/**
 * The production {@link HostConnector}: the kernel adapters of {@code adapter-host-fs} and the
 * D-Bus systemd adapter on the system bus ({@code $DBUS_SYSTEM_BUS_ADDRESS}, else
 * {@code /run/dbus/system_bus_socket}), connected on first use; the default layout
 * ({@code /opt/unbounded/node}) and host paths ({@code /}).
 */
public final class RealHostConnector implements HostConnector {
  private final Supplier<DbusSystemd> bus;

  public RealHostConnector() {
    this(DbusSystemd::connectSystemBus);
  }

  /** The real host with the systemd adapter connected, on first use, by {@code bus}. */
  RealHostConnector(Supplier<DbusSystemd> bus) {
    this.bus = bus;
  }

  @Override
  public HostSession connect() {
    RealHost host = RealHost.create();
    LazySystemd systemd = new LazySystemd(bus);
    return new HostSession(
        host.ports(systemd), Layout.defaultLayout(), HostPaths.realHost(), systemd);
  }
}
