package dev.noneops.core.node.internal.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The bridges the node's pod networks put on the host: the CNI bridge plugin creates the bridge a
 * network configuration in the node's CNI configuration directory names (its {@code bridge}, or
 * {@value #DEFAULT_BRIDGE} when it names none) when the first pod joins, and nothing removes it
 * when the pods are gone. A teardown removes them after the stack is stopped, each only when it is
 * a bridge: a link of that name of another kind, a bridge no configuration names (another
 * runtime's, such as Docker's), and a bridge a configuration from before the node names ({@link
 * PreexistingCniEntries}: another runtime's network, however the node's own configuration names its
 * bridge) are left alone. Without that record no configuration can be told to be the node's, and
 * none is removed.
 */
public final class CniBridges {
  /** The bridge plugin's default bridge. */
  public static final String DEFAULT_BRIDGE = "cni0";

  private static final String BRIDGE_KIND = "bridge";
  private static final ObjectMapper JSON = new ObjectMapper();

  private CniBridges() {}

  /**
   * The bridges named by the node's network configurations ({@code *.conf}, {@code *.conflist},
   * {@code *.json}) in {@code confDir}, sorted: those not in {@code before}, the entries that were
   * there before the node, less every bridge one of those names; none when {@code before} is
   * empty (never recorded). A file that is no readable JSON names none.
   */
  public static List<String> named(HostFiles files, Path confDir, Optional<Set<Path>> before)
      throws IOException {
    if (before.isEmpty() || !files.exists(confDir)) {
      return List.of();
    }
    TreeSet<String> nodes = new TreeSet<>();
    TreeSet<String> foreign = new TreeSet<>();
    for (String name : files.list(confDir)) {
      if (name.endsWith(".conf") || name.endsWith(".conflist") || name.endsWith(".json")) {
        Path file = confDir.resolve(name);
        TreeSet<String> into = before.get().contains(file.normalize()) ? foreign : nodes;
        parse(files.read(file)).ifPresent(config -> addBridges(config, into));
      }
    }
    nodes.removeAll(foreign);
    return List.copyOf(nodes);
  }

  private static Optional<JsonNode> parse(byte[] bytes) {
    try {
      return Optional.of(JSON.readTree(bytes));
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }

  private static void addBridges(JsonNode config, TreeSet<String> bridges) {
    List<JsonNode> plugins = new ArrayList<>();
    if (config.path("plugins").isArray()) {
      config.path("plugins").forEach(plugins::add);
    } else {
      plugins.add(config);
    }
    for (JsonNode plugin : plugins) {
      if (plugin.path("type").asText("").equals(BRIDGE_KIND)) {
        bridges.add(plugin.path("bridge").asText(DEFAULT_BRIDGE));
      }
    }
  }

  /** Removes those of {@code names} that are bridges; returns the ones removed. */
  public static List<String> remove(HostNetwork network, List<String> names) throws IOException {
    List<String> removed = new ArrayList<>();
    for (String name : names) {
      Optional<NetworkLink> link = network.link(name);
      if (link.isPresent() && link.get().kind().equals(BRIDGE_KIND)) {
        network.deleteLink(name);
        removed.add(name);
      }
    }
    return removed;
  }
}
