package dev.noneops.core.node;

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
import java.util.TreeSet;

/**
 * The bridges the node's pod networks put on the host: the CNI bridge plugin creates the bridge a
 * network configuration in the node's CNI configuration directory names (its {@code bridge}, or
 * {@value #DEFAULT_BRIDGE} when it names none) when the first pod joins, and nothing removes it
 * when the pods are gone. A teardown removes them after the stack is stopped, each only when it is
 * a bridge: a link of that name of another kind, and a bridge no configuration names (another
 * runtime's, such as Docker's), are left alone.
 */
final class CniBridges {
  /** The bridge plugin's default bridge. */
  static final String DEFAULT_BRIDGE = "cni0";

  private static final String BRIDGE_KIND = "bridge";
  private static final ObjectMapper JSON = new ObjectMapper();

  private CniBridges() {}

  /**
   * The bridges named by the network configurations ({@code *.conf}, {@code *.conflist}, {@code
   * *.json}) in {@code confDir}, sorted; a file that is no readable JSON names none.
   */
  static List<String> named(HostFiles files, Path confDir) throws IOException {
    TreeSet<String> bridges = new TreeSet<>();
    if (!files.exists(confDir)) {
      return List.of();
    }
    for (String name : files.list(confDir)) {
      if (name.endsWith(".conf") || name.endsWith(".conflist") || name.endsWith(".json")) {
        parse(files.read(confDir.resolve(name))).ifPresent(config -> addBridges(config, bridges));
      }
    }
    return List.copyOf(bridges);
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
  static List<String> remove(HostNetwork network, List<String> names) throws IOException {
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
