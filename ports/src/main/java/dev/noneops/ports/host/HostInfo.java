package dev.noneops.ports.host;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Facts about the host that decide what a node installs and how it runs.
 *
 * @param arch the Go-style architecture name: {@code amd64}, {@code arm64}, or the raw machine
 *     name when it is neither
 * @param kernelRelease {@code uname -r}
 * @param hostname the host name, which becomes the Kubernetes Node name
 * @param gpuDevices NVIDIA device nodes ({@code /dev/nvidia*}, {@code /dev/nvidia-caps/*}, and
 *     {@code /dev/dri/*} when any NVIDIA device exists), sorted
 * @param kvmPresent whether {@code /dev/kvm} exists
 * @param upstreamNameservers the host's resolvers (from {@code /etc/resolv.conf}, or systemd-resolved's
 *     upstream list when the former points at its stub), which LocalDNS forwards to
 */
public record HostInfo(
    String arch, String kernelRelease, String hostname, List<Path> gpuDevices, boolean kvmPresent, List<String> upstreamNameservers) {
  public HostInfo {
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(kernelRelease, "kernelRelease");
    Objects.requireNonNull(hostname, "hostname");
    gpuDevices = List.copyOf(gpuDevices);
    upstreamNameservers = List.copyOf(upstreamNameservers);
  }
}
