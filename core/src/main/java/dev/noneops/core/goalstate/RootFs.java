package dev.noneops.core.goalstate;

import dev.noneops.core.config.ComponentVersions;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a node installs: the binary versions (already resolved with override precedence
 * applied), the host facts that matter, and where each artifact is fetched from.
 *
 * @param versionName the version directory name, {@code VersionFor} of this goal state
 * @param hostArch {@code amd64} or {@code arm64}
 * @param hostKernel {@code uname -r}
 * @param hostname the host name
 * @param versions the effective version of every component
 * @param artifacts every artifact to install, with its URL and checksum source
 * @param gpuDevices NVIDIA device nodes found on the host
 * @param hostDevicePaths other host devices the node uses ({@code /dev/kvm})
 */
public record RootFs(
    String versionName,
    String hostArch,
    String hostKernel,
    String hostname,
    ComponentVersions versions,
    List<Artifact> artifacts,
    List<Path> gpuDevices,
    List<Path> hostDevicePaths) {

  public RootFs {
    Objects.requireNonNull(versionName, "versionName");
    Objects.requireNonNull(hostArch, "hostArch");
    Objects.requireNonNull(hostKernel, "hostKernel");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(versions, "versions");
    artifacts = List.copyOf(artifacts);
    gpuDevices = List.copyOf(gpuDevices);
    hostDevicePaths = List.copyOf(hostDevicePaths);
  }
}
