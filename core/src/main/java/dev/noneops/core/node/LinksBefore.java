package dev.noneops.core.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.network.HostNetwork;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The names of the network links the host had before this node came (an operator's {@code cni0},
 * another runtime's bridge): the host's, not the node's, whatever the node's CNI configuration
 * later names. Taken once, with {@link CniEntriesBefore} when the node is provisioned and before
 * its stack first runs, and kept durably in the layout; a provision run again keeps the first
 * record.
 *
 * <pre>
 * {"format":1,"links":["cni0","eth0","lo"]}
 * </pre>
 */
final class LinksBefore {
  static final int FORMAT = 1;

  private static final Pattern NAME = Pattern.compile("[^/:\\s]{1,15}");
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final HostFiles files;
  private final HostNetwork network;
  private final Path record;

  LinksBefore(HostFiles files, HostNetwork network, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.network = Objects.requireNonNull(network, "network");
    this.record = Objects.requireNonNull(layout, "layout").linksBefore();
  }

  /** Records the links the host has now, durably, unless a record was taken already. */
  void recordIfAbsent() throws IOException {
    if (files.exists(record)) {
      return;
    }
    ObjectNode doc = JSON.createObjectNode();
    doc.put("format", FORMAT);
    ArrayNode links = doc.putArray("links");
    new TreeSet<>(network.linkNames()).forEach(links::add);
    files.writeDurably(record, JSON.writeValueAsBytes(doc), 0600);
  }

  /**
   * The recorded link names; empty when no record was taken (a node provisioned before links were
   * recorded).
   *
   * @throws CorruptStateException when the record cannot be read or names no link name
   */
  Optional<Set<String>> load() throws IOException {
    if (!files.exists(record)) {
      return Optional.empty();
    }
    JsonNode doc;
    try {
      doc = JSON.readTree(files.read(record));
    } catch (IOException e) {
      throw new CorruptStateException(
          record, "the record of the links from before the node", e.getMessage(), e);
    }
    if (doc == null
        || doc.path("format").asInt(-1) != FORMAT
        || !doc.path("links").isArray()) {
      throw new CorruptStateException(
          record, "the record of the links from before the node", "unknown format");
    }
    Set<String> out = new TreeSet<>();
    for (JsonNode link : doc.path("links")) {
      if (!link.isTextual() || !NAME.matcher(link.asText()).matches()) {
        throw new CorruptStateException(
            record, "the record of the links from before the node", "names " + link);
      }
      out.add(link.asText());
    }
    return Optional.of(out);
  }
}
