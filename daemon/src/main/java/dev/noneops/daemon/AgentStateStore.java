package dev.noneops.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads and writes {@link AgentState} at {@link HostPaths#agentState()}, durably and atomically.
 * The state informs; nothing the node's safety rests on is in it: a missing or unreadable file
 * reads as {@link AgentState#EMPTY} (a quarantine it held is forgotten, so a target that rolled
 * back may be tried once more).
 */
final class AgentStateStore {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FILE_MODE = 0644;

  private final HostFiles files;
  private final Path path;

  AgentStateStore(HostFiles files, HostPaths paths) {
    this.files = files;
    this.path = paths.agentState();
  }

  Path path() {
    return path;
  }

  AgentState read() {
    try {
      if (!files.exists(path)) {
        return AgentState.EMPTY;
      }
      JsonNode root = JSON.readTree(files.read(path));
      if (root == null || !root.isObject()) {
        return AgentState.EMPTY;
      }
      List<AgentState.Quarantine> quarantined = new ArrayList<>();
      for (JsonNode q : root.path("quarantined")) {
        quarantined.add(new AgentState.Quarantine(
            q.path("configDigest").asText(),
            q.path("targetVersion").asText(),
            Instant.parse(q.path("since").asText()),
            q.path("reason").asText()));
      }
      Optional<AgentState.Watch> watching = root.hasNonNull("watching")
          ? Optional.of(new AgentState.Watch(
              root.path("watching").path("configFile").asText(),
              Instant.parse(root.path("watching").path("since").asText()),
              Optional.ofNullable(root.path("watching").path("handledDigest").textValue())))
          : Optional.empty();
      return new AgentState(
          event(root.path("bootRecovery")),
          event(root.path("startRecovery")),
          event(root.path("lastOperation")),
          quarantined,
          watching,
          counters(root.path("counters")));
    } catch (IOException | DateTimeParseException | IllegalArgumentException e) {
      return AgentState.EMPTY;
    }
  }

  void write(AgentState state) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    state.bootRecovery().ifPresent(e -> root.set("bootRecovery", event(e)));
    state.startRecovery().ifPresent(e -> root.set("startRecovery", event(e)));
    state.lastOperation().ifPresent(e -> root.set("lastOperation", event(e)));
    ArrayNode quarantined = root.putArray("quarantined");
    for (AgentState.Quarantine q : state.quarantined()) {
      quarantined
          .addObject()
          .put("configDigest", q.configDigest())
          .put("targetVersion", q.targetVersion())
          .put("since", q.since().toString())
          .put("reason", q.reason());
    }
    state.watching().ifPresent(w -> {
      ObjectNode watch = root.putObject("watching")
          .put("configFile", w.configFile())
          .put("since", w.since().toString());
      w.handledDigest().ifPresent(d -> watch.put("handledDigest", d));
    });
    AgentState.Counters c = state.counters();
    ObjectNode counters = root.putObject("counters");
    ObjectNode operations = counters.putObject("operations");
    c.operations().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(op -> {
      ObjectNode outcomes = operations.putObject(op.getKey());
      op.getValue().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(o -> outcomes.put(o.getKey(), o.getValue()));
    });
    counters.put("bytesDownloaded", c.bytesDownloaded());
    counters.put("bytesVerified", c.bytesVerified());
    c.lastSuccess().ifPresent(t -> counters.put("lastSuccess", t.toString()));
    byte[] bytes = (JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n")
        .getBytes(StandardCharsets.UTF_8);
    if (path.getParent() != null && !files.exists(path.getParent())) {
      files.createDirectories(path.getParent(), 0750);
    }
    files.writeDurably(path, bytes, FILE_MODE);
  }

  /** The counters recorded, none where the file predates them. */
  private static AgentState.Counters counters(JsonNode node) {
    if (node == null || !node.isObject()) {
      return AgentState.Counters.NONE;
    }
    Map<String, Map<String, Long>> operations = new TreeMap<>();
    node.path("operations").fields().forEachRemaining(op -> {
      Map<String, Long> outcomes = new TreeMap<>();
      op.getValue()
          .fields()
          .forEachRemaining(o -> outcomes.put(o.getKey(), o.getValue().asLong()));
      operations.put(op.getKey(), outcomes);
    });
    return new AgentState.Counters(
        operations,
        node.path("bytesDownloaded").asLong(),
        node.path("bytesVerified").asLong(),
        node.hasNonNull("lastSuccess")
            ? Optional.of(Instant.parse(node.path("lastSuccess").asText()))
            : Optional.empty());
  }

  private static Optional<AgentState.Event> event(JsonNode node) {
    if (node == null || !node.isObject()) {
      return Optional.empty();
    }
    return Optional.of(new AgentState.Event(
        Instant.parse(node.path("at").asText()),
        node.path("kind").asText(),
        node.path("outcome").asText(),
        node.path("detail").asText()));
  }

  private static ObjectNode event(AgentState.Event e) {
    return JSON.createObjectNode()
        .put("at", e.at().toString())
        .put("kind", e.kind())
        .put("outcome", e.outcome())
        .put("detail", e.detail());
  }
}
