package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.network.HostNetwork;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The names of the network links the host had before this node came (an operator's {@code cni0},
 * another runtime's bridge): the host's, not the node's, whatever the node's CNI configuration
 * later names. Taken once, with {@link PreexistingCniEntries} when the node is provisioned and before
 * its stack first runs, and kept durably in the layout; a provision run again keeps the first
 * record.
 *
 * <pre>
 * {"format":1,"links":["cni0","eth0","lo"]}
 * </pre>
 */
public final class PreexistingLinks {
  private static final Pattern NAME = Pattern.compile("[^/:\\s]{1,15}");

  private final HostNetwork network;
  private final RecordBeforeTheNode record;

  public PreexistingLinks(HostFiles files, HostNetwork network, Layout layout) {
    this.network = Objects.requireNonNull(network, "network");
    this.record = new RecordBeforeTheNode(
        files,
        Objects.requireNonNull(layout, "layout").linksBefore(),
        "the record of the links from before the node",
        "links");
  }

  /** Records the links the host has now, durably, unless a record was taken already. */
  public void recordIfAbsent() throws IOException {
    if (!record.exists()) {
      record.writeIfAbsent(new TreeSet<>(network.linkNames()), doc -> {});
    }
  }

  /**
   * The recorded link names; empty when no record was taken (a node provisioned before links were
   * recorded).
   *
   * @throws CorruptStateException when the record cannot be read or names no link name
   */
  public Optional<Set<String>> load() throws IOException {
    Optional<List<JsonNode>> links = record.readList();
    if (links.isEmpty()) {
      return Optional.empty();
    }
    Set<String> out = new TreeSet<>();
    for (JsonNode link : links.get()) {
      if (!link.isTextual() || !NAME.matcher(link.asText()).matches()) {
        throw record.corrupt("names " + link);
      }
      out.add(link.asText());
    }
    return Optional.of(out);
  }
}
