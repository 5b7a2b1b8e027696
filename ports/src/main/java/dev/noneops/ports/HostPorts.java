package dev.noneops.ports;

import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.health.HealthProbes;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.process.Cgroups;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.time.HostClock;
import java.util.Objects;

/**
 * Every port a node needs, bundled so a composition root (the CLI's wiring, or a test's
 * {@code SimulatedHost}) hands core one value.
 */
public record HostPorts(
    HostFiles files,
    Systemd systemd,
    CommandRunner commands,
    ProcessTable processes,
    Cgroups cgroups,
    MountTable mounts,
    ArtifactDownloader downloads,
    HealthProbes probes,
    HostFacts facts,
    HostClock clock,
    HostNetwork network,
    KernelTuning kernel,
    ServiceNotifier notifier) {

  public HostPorts {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(systemd, "systemd");
    Objects.requireNonNull(commands, "commands");
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(cgroups, "cgroups");
    Objects.requireNonNull(mounts, "mounts");
    Objects.requireNonNull(downloads, "downloads");
    Objects.requireNonNull(probes, "probes");
    Objects.requireNonNull(facts, "facts");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(notifier, "notifier");
  }
}
