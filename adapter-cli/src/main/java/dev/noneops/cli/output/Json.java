package dev.noneops.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The CLI's one JSON writer. Every {@code --json} document is an object with keys sorted
 * alphabetically at every level, and carries {@code schemaVersion} (bumped only on an incompatible
 * change) and {@code command}, so scripts can rely on its shape.
 */
public final class Json {
  /** The schema version of every document the CLI prints. */
  public static final int SCHEMA_VERSION = 1;

  /** The shared mapper: sorted keys, no timestamps as numbers, pretty printed. */
  public static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .build();

  private Json() {}

  /** {@code result}'s fields plus {@code schemaVersion} and {@code command}, as one sorted object. */
  public static ObjectNode document(String command, Object result) {
    ObjectNode node = result == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(result);
    node.put("schemaVersion", SCHEMA_VERSION);
    node.put("command", command);
    return sorted(node);
  }

  /** Writes {@link #document} and a newline to {@code out}. */
  public static void print(PrintWriter out, String command, Object result) {
    write(out, document(command, result));
  }

  /** Writes any node and a newline to {@code out}. */
  public static void write(PrintWriter out, Object node) {
    try {
      out.println(MAPPER.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render JSON: " + e.getOriginalMessage(), e);
    }
    out.flush();
  }

  private static ObjectNode sorted(ObjectNode node) {
    ObjectNode copy = MAPPER.createObjectNode();
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    Collections.sort(names);
    for (String name : names) {
      copy.set(name, node.get(name));
    }
    return copy;
  }
}
