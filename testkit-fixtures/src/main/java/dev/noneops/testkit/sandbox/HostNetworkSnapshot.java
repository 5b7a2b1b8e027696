package dev.noneops.testkit.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host network namespace's state as the kernel reports it: links, addresses and routes of
 * every table ({@code ip -j}), and the packet filter's rules ({@code iptables-save},
 * {@code ip6tables-save}, {@code nft list ruleset}) where those tools exist. Two snapshots taken
 * before and after a test are equal when the test left the host's network as it found it; link
 * counters are not part of it ({@code ip} without {@code -s}).
 *
 * @param views each view's command line and what it printed
 */
public record HostNetworkSnapshot(Map<String, String> views) {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final List<List<String>> IP = List.of(
      List.of("ip", "-j", "link", "show"),
      List.of("ip", "-j", "addr", "show"),
      List.of("ip", "-j", "-4", "route", "show", "table", "all"),
      List.of("ip", "-j", "-6", "route", "show", "table", "all"),
      List.of("ip", "-j", "netns", "list"));
  private static final List<List<String>> FILTERS = List.of(
      List.of("iptables-save"), List.of("ip6tables-save"), List.of("nft", "list", "ruleset"));

  public HostNetworkSnapshot {
    views = Map.copyOf(views);
  }

  /** The host's network state now. */
  public static HostNetworkSnapshot take() {
    Map<String, String> views = new LinkedHashMap<>();
    for (List<String> command : IP) {
      views.put(String.join(" ", command), run(command));
    }
    for (List<String> command : FILTERS) {
      if (onPath(command.get(0))) {
        views.put(String.join(" ", command), withoutCounters(run(command)));
      }
    }
    return new HostNetworkSnapshot(views);
  }

  private static String run(List<String> command) {
    CommandResult result = HostCommand.run(command, TIMEOUT);
    return result.exitCode() + "\n" + result.stdout();
  }

  private static boolean onPath(String tool) {
    for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** {@code iptables-save}'s packet counters and its dated comments change by themselves. */
  private static String withoutCounters(String rules) {
    return rules.replaceAll("\\[\\d+:\\d+\\]", "[]").replaceAll("(?m)^#.*$", "#");
  }
}
