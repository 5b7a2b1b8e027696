package dev.noneops.testkit.system;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.kernel.CommandKernelTuning;
import dev.noneops.hostfs.network.IpHostNetwork;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.systemd.Systemd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real adapters of {@code adapter-host-fs}, rooted in a sandboxed systemd: a node driven
 * through these ports (with its production layout {@code /opt/unbounded/node}, host root
 * {@code /} and unit directory {@code /etc/systemd/system}) changes the sandbox exactly as it
 * would change a real host, and nothing of the host.
 *
 * <ul>
 *   <li>files and downloads go below {@code /proc/<pid>/root} ({@link RootedHostFiles},
 *       {@link RootedArtifactDownloader}), so the unit files the node writes are the ones the
 *       sandbox's systemd loads, and the paths inside them are the production paths;
 *   <li>commands run inside the sandbox's namespaces and root ({@link SandboxCommandRunner}), and so
 *       do the {@code ip}, {@code modprobe} and {@code sysctl} of the network and kernel ports;
 *   <li>the process table shows only the sandbox's processes ({@link SandboxProcessTable});
 *   <li>cgroups are the sandbox's cgroup2 mount; mounts its mountinfo ({@link SandboxMountTable});
 *   <li>host facts are read from its root; the clock is the host's; health probes are the host's
 *       when the sandbox shares the host's network namespace, and run inside the sandbox's own
 *       when it has one ({@link SandboxHealthProbes}).
 * </ul>
 *
 * Systemd is the caller's: a {@code DbusSystemd} on {@link SandboxRoot#busAddress()}. On a kernel
 * without dummy links the command runner (and so the network port) has the {@link DummyLinkStandIn}.
 */
public final class SandboxHostPorts {
  private SandboxHostPorts() {}

  public static HostPorts create(SandboxRoot root, Systemd systemd) throws IOException {
    RealHost host = RealHost.builder()
        .cgroupRoot(root.outside(Path.of("/sys/fs/cgroup")))
        .hostRoot(root.root())
        .build();
    RealHost sandboxMounts = RealHost.builder()
        .mountInfo(Path.of("/proc", Long.toString(root.pid()), "mountinfo"))
        .build();
    CommandRunner commands =
        DummyLinkStandIn.ifNeeded(new SandboxCommandRunner(host.commands(), root));
    return new HostPorts(
        new RootedHostFiles(host.files(), root),
        systemd,
        commands,
        new SandboxProcessTable(host.processes(), root),
        host.cgroups(),
        new SandboxMountTable(sandboxMounts.mounts(), host.commands(), root),
        new RootedArtifactDownloader(host.downloads(), root),
        ownNetwork(root) ? new SandboxHealthProbes(host.commands(), root) : host.probes(),
        host.facts(),
        host.clock(),
        new IpHostNetwork(commands, RealHost.KERNEL_COMMAND_TIMEOUT),
        new CommandKernelTuning(commands, RealHost.KERNEL_COMMAND_TIMEOUT),
        host.notifier());
  }

  /** Whether the sandbox runs in a network namespace other than this JVM's. */
  static boolean ownNetwork(SandboxRoot root) throws IOException {
    return !Files.readSymbolicLink(Path.of("/proc", Long.toString(root.pid()), "ns", "net"))
        .equals(Files.readSymbolicLink(Path.of("/proc/self/ns/net")));
  }
}
