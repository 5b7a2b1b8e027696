package dev.noneops.ports.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Reads the {@code nameserver} lines of {@code resolv.conf(5)} files and what they mean for a node. */
public final class ResolvConf {

  /** systemd-resolved's local stub listener, which LocalDNS must not forward to. */
  public static final String RESOLVED_STUB = "127.0.0.53";

  private ResolvConf() {}

  /**
   * The resolver facts of a host.
   *
   * @param upstreams the servers LocalDNS forwards to
   * @param kubeletResolvConf the file kubelet gives pods that use the host's DNS
   */
  public record Resolvers(List<String> upstreams, Path kubeletResolvConf) {
    public Resolvers {
      upstreams = List.copyOf(upstreams);
      Objects.requireNonNull(kubeletResolvConf, "kubeletResolvConf");
    }
  }

  /**
   * What a host's {@code /etc/resolv.conf} and, when present, systemd-resolved's upstream list say.
   * The upstreams are {@code /etc/resolv.conf}'s servers, or systemd-resolved's when those include
   * its stub, never the stub itself. kubelet gets systemd-resolved's list when
   * {@code /etc/resolv.conf} names only the stub and the list exists (as kubeadm does), else
   * {@code /etc/resolv.conf}.
   */
  public static Resolvers resolvers(String etcResolvConf, Optional<String> resolvedUpstreams) {
    List<String> own = nameservers(etcResolvConf);
    List<String> upstreams =
        pointsAtResolvedStub(own) ? nameservers(resolvedUpstreams.orElse("")) : own;
    upstreams.remove(RESOLVED_STUB);
    boolean onlyStub = own.equals(List.of(RESOLVED_STUB));
    Path kubelet = onlyStub && resolvedUpstreams.isPresent()
        ? HostInfo.RESOLVED_UPSTREAM_RESOLV_CONF
        : HostInfo.RESOLV_CONF;
    return new Resolvers(upstreams, kubelet);
  }

  /** The nameserver addresses, in file order, without comments. */
  public static List<String> nameservers(String content) {
    List<String> servers = new ArrayList<>();
    for (String raw : content.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length >= 2 && words[0].equals("nameserver") && !servers.contains(words[1])) {
        servers.add(words[1]);
      }
    }
    return servers;
  }

  /** Whether the resolvers include systemd-resolved's stub, whose upstreams are listed elsewhere. */
  public static boolean pointsAtResolvedStub(List<String> nameservers) {
    return nameservers.contains(RESOLVED_STUB);
  }
}
