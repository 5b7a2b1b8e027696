package dev.noneops.core.node.internal.render;

import com.google.common.net.InetAddresses;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.layout.HostPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * LocalDNS's CoreDNS {@code Corefile}: two server blocks bound to the link-local address on the
 * dummy interface. The cluster domain is forwarded to the cluster DNS, every other name to the
 * host's upstream resolvers; both are cached. The catch-all block is left out when the host has
 * no upstream resolver (cluster names still resolve). Every address must be an IP literal and
 * the domain a DNS name, so nothing from configuration can add a directive.
 */
public final class CorefileRenderer {
  private static final Pattern DOMAIN = Pattern.compile(
      "([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
  public static final int CACHE_SECONDS = 30;

  private CorefileRenderer() {}

  public static byte[] render(LocalDnsSpec spec) {
    String bind = ip("bindAddress", spec.bindAddress());
    String clusterDns = ip("clusterDns", spec.clusterDns());
    if (!DOMAIN.matcher(spec.clusterDomain()).matches() || spec.clusterDomain().length() > 253) {
      throw new IllegalArgumentException(
          "LocalDNS cluster domain is not a DNS name: '" + spec.clusterDomain() + "'");
    }
    if (spec.port() < 1 || spec.port() > 65535) {
      throw new IllegalArgumentException("LocalDNS port out of range: " + spec.port());
    }
    List<String> upstreams = new ArrayList<>();
    for (String upstream : spec.upstreams()) {
      upstreams.add(forwardTarget(ip("upstream resolver", upstream)));
    }
    StringBuilder out = new StringBuilder();
    out.append(HostPaths.UNIT_MARKER).append('\n');
    block(out, spec.clusterDomain(), spec.port(), bind, List.of(forwardTarget(clusterDns)));
    if (!upstreams.isEmpty()) {
      block(out, ".", spec.port(), bind, upstreams);
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void block(
      StringBuilder out, String zone, int port, String bind, List<String> forwardTo) {
    out.append(zone).append(':').append(port).append(" {\n");
    out.append("    errors\n");
    out.append("    bind ").append(bind).append('\n');
    out.append("    cache ").append(CACHE_SECONDS).append('\n');
    out.append("    reload\n");
    out.append("    forward . ").append(String.join(" ", forwardTo)).append('\n');
    out.append("}\n");
  }

  private static String ip(String what, String value) {
    if (!InetAddresses.isInetAddress(value)) {
      throw new IllegalArgumentException(
          "LocalDNS " + what + " is not an IP address: '" + value + "'");
    }
    return InetAddresses.toAddrString(InetAddresses.forString(value));
  }

  private static String forwardTarget(String ip) {
    return ip.contains(":") ? "[" + ip + "]:53" : ip;
  }
}
