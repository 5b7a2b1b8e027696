package dev.noneops.hostfs.host;

import java.util.ArrayList;
import java.util.List;

/** Reads the {@code nameserver} lines of a {@code resolv.conf(5)} file. */
public final class ResolvConf {

  /** systemd-resolved's local stub listener, which LocalDNS must not forward to. */
  public static final String RESOLVED_STUB = "127.0.0.53";

  private ResolvConf() {}

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

  /** Whether the resolvers are only systemd-resolved's stub, whose upstreams are listed elsewhere. */
  public static boolean pointsAtResolvedStub(List<String> nameservers) {
    return nameservers.contains(RESOLVED_STUB);
  }
}
