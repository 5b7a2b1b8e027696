package dev.noneops.core.goalstate;

import java.util.List;
import java.util.Objects;

/**
 * The node-local DNS cache.
 *
 * @param binPath the server binary (under {@code current/bin})
 * @param interfaceName the dummy interface it listens on, shared with host-network pods
 * @param bindAddress the link-local address it listens on; kubelet's {@code --cluster-dns}
 * @param port the DNS port (53)
 * @param clusterDomain the cluster domain forwarded to the cluster DNS ({@code cluster.local})
 * @param clusterDns the cluster DNS service address (the configured {@code ClusterDNS})
 * @param upstreams the host's resolvers, for every other name
 */
public record LocalDnsSpec(
    String binPath,
    String interfaceName,
    String bindAddress,
    int port,
    String clusterDomain,
    String clusterDns,
    List<String> upstreams) {
  public LocalDnsSpec {
    Objects.requireNonNull(binPath, "binPath");
    Objects.requireNonNull(interfaceName, "interfaceName");
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(clusterDomain, "clusterDomain");
    Objects.requireNonNull(clusterDns, "clusterDns");
    upstreams = List.copyOf(upstreams);
  }
}
