package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One record of what the host had before this node came, kept durably in the layout as a small
 * JSON document with a {@code format} and one list: taken once, when the node is provisioned, and
 * never taken again (a provision run again keeps the first record, since by then the node's stack
 * may have added to what it would find). Reading it back trusts nothing: a document of another
 * format or without its list is {@link CorruptStateException corrupt}, and each element is left
 * to the caller to check.
 */
public final class RecordBeforeTheNode {
  public static final int FORMAT = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final HostFiles files;
  private final Path path;
  private final String what;
  private final String list;

  /**
   * @param what the record, as an error names it ("the record of the links from before the node")
   * @param list the name of the document's list
   */
  public RecordBeforeTheNode(HostFiles files, Path path, String what, String list) {
    this.files = Objects.requireNonNull(files, "files");
    this.path = Objects.requireNonNull(path, "path");
    this.what = Objects.requireNonNull(what, "what");
    this.list = Objects.requireNonNull(list, "list");
  }

  public Path path() {
    return path;
  }

  public boolean exists() throws IOException {
    return files.exists(path);
  }

  /**
   * Writes the record durably (mode 0600) with {@code elements} as its list and whatever {@code
   * more} adds beside it, unless a record was taken already.
   */
  public void writeIfAbsent(Iterable<String> elements, Consumer<ObjectNode> more)
      throws IOException {
    if (exists()) {
      return;
    }
    ObjectNode doc = JSON.createObjectNode();
    doc.put("format", FORMAT);
    more.accept(doc);
    elements.forEach(doc.putArray(list)::add);
    files.writeDurably(path, JSON.writeValueAsBytes(doc), 0600);
  }

  /**
   * The record's list, unchecked element by element; empty when no record was taken.
   *
   * @throws CorruptStateException when the record cannot be parsed or is not of the known format
   */
  public Optional<List<JsonNode>> readList() throws IOException {
    if (!exists()) {
      return Optional.empty();
    }
    JsonNode doc;
    try {
      doc = JSON.readTree(files.read(path));
    } catch (IOException e) {
      throw new CorruptStateException(path, what, e.getMessage(), e);
    }
    if (doc == null || doc.path("format").asInt(-1) != FORMAT || !doc.path(list).isArray()) {
      throw corrupt("unknown format");
    }
    List<JsonNode> out = new ArrayList<>();
    doc.path(list).forEach(out::add);
    return Optional.of(out);
  }

  /** The error for a record whose content cannot be trusted, saying why. */
  public CorruptStateException corrupt(String why) {
    return new CorruptStateException(path, what, why);
  }
}
