package dev.noneops.core.goalstate;

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
 * @param kubernetesVersion effective Kubernetes version, without a leading {@code v}
 * @param containerdVersion effective containerd version
 * @param runcVersion effective runc version
 * @param cniPluginVersion effective CNI plugins version
 * @param crictlVersion effective crictl version
 * @param localDnsVersion effective LocalDNS server version
 * @param artifacts every artifact to install, with its URL and checksum source
 * @param gpuDevices NVIDIA device nodes found on the host
 * @param hostDevicePaths other host devices the node uses ({@code /dev/kvm})
 */
public record RootFs(
    String versionName,
    String hostArch,
    String hostKernel,
    String hostname,
    String kubernetesVersion,
    String containerdVersion,
    String runcVersion,
    String cniPluginVersion,
    String crictlVersion,
    String localDnsVersion,
    List<Artifact> artifacts,
    List<Path> gpuDevices,
    List<Path> hostDevicePaths) {

  public RootFs {
    Objects.requireNonNull(versionName, "versionName");
    Objects.requireNonNull(hostArch, "hostArch");
    Objects.requireNonNull(hostKernel, "hostKernel");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
    Objects.requireNonNull(containerdVersion, "containerdVersion");
    Objects.requireNonNull(runcVersion, "runcVersion");
    Objects.requireNonNull(cniPluginVersion, "cniPluginVersion");
    Objects.requireNonNull(crictlVersion, "crictlVersion");
    Objects.requireNonNull(localDnsVersion, "localDnsVersion");
    artifacts = List.copyOf(artifacts);
    gpuDevices = List.copyOf(gpuDevices);
    hostDevicePaths = List.copyOf(hostDevicePaths);
  }
}
