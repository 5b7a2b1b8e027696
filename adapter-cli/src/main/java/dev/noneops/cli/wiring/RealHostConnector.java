package dev.noneops.cli.wiring;

import dev.noneops.cli.HostConnector;
import dev.noneops.cli.HostSession;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.HostPorts;
import dev.noneops.systemd.DbusSystemd;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The production {@link HostConnector}: the kernel adapters of {@code adapter-host-fs} and the
 * D-Bus systemd adapter on the system bus ({@code $DBUS_SYSTEM_BUS_ADDRESS}, else
 * {@code /run/dbus/system_bus_socket}), connected on first use; the default layout
 * ({@code /opt/unbounded/node}) and host paths ({@code /}); the daemon reaches the node's cluster
 * with kubelet's credentials ({@link KubeletKubeconfigCluster}).
 */
public final class RealHostConnector implements HostConnector {
  private static final Path MOUNT_TABLE = Path.of("/proc/self/mountinfo");

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
    return session(RealHost.create());
  }

  /**
   * {@inheritDoc} Its files report mount ids from the mount table ({@code /proc/self/mountinfo}),
   * so reading the node's metadata binds no native library.
   */
  @Override
  public HostSession connectToRead() {
    return session(RealHost.builder().mountInfo(MOUNT_TABLE).build());
  }

  private HostSession session(RealHost host) {
    LazySystemd systemd = new LazySystemd(bus);
    HostPorts ports = host.ports(systemd);
    HostPaths paths = HostPaths.realHost();
    return new HostSession(ports, Layout.defaultLayout(), paths, systemd)
        .withCluster(() -> Optional.of(new KubeletKubeconfigCluster(ports.files(), paths)));
  }
}
