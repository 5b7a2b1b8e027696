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
 * @param kubeletResolvConf the resolv.conf kubelet gives pods that use the host's DNS:
 *     {@link #RESOLV_CONF}, or {@link #RESOLVED_UPSTREAM_RESOLV_CONF} when the former names only
 *     systemd-resolved's stub {@code 127.0.0.53} (which no pod can reach) and the latter exists
 */
public record HostInfo(
    String arch,
    String kernelRelease,
    String hostname,
    List<Path> gpuDevices,
    boolean kvmPresent,
    List<String> upstreamNameservers,
    Path kubeletResolvConf) {

  /** The host's resolver configuration. */
  public static final Path RESOLV_CONF = Path.of("/etc/resolv.conf");

  /** systemd-resolved's list of the real upstream servers, behind its stub. */
  public static final Path RESOLVED_UPSTREAM_RESOLV_CONF =
      Path.of("/run/systemd/resolve/resolv.conf");

  public HostInfo {
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(kernelRelease, "kernelRelease");
    Objects.requireNonNull(hostname, "hostname");
    gpuDevices = List.copyOf(gpuDevices);
    upstreamNameservers = List.copyOf(upstreamNameservers);
    Objects.requireNonNull(kubeletResolvConf, "kubeletResolvConf");
    if (!kubeletResolvConf.isAbsolute()) {
      throw new IllegalArgumentException(
          "kubeletResolvConf must be an absolute path: " + kubeletResolvConf);
    }
  }

  /** The facts of a host whose {@link #RESOLV_CONF} lists resolvers pods can use as they are. */
  public HostInfo(
      String arch,
      String kernelRelease,
      String hostname,
      List<Path> gpuDevices,
      boolean kvmPresent,
      List<String> upstreamNameservers) {
    this(arch, kernelRelease, hostname, gpuDevices, kvmPresent, upstreamNameservers, RESOLV_CONF);
  }
}
