package dev.noneops.core.node.internal.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The upgrades that were rolled back, kept in {@value #FILE_NAME} in the layout so that an
 * updater re-applying the same configuration does not loop through the same failing upgrade
 * (the bootc/Flatcar update loop): {@code Upgrade} refuses a rolled-back upgrade unless forced.
 * The journal cannot hold this, because a rollback removes the journal. A successful commit of
 * the same upgrade forgets it. At most {@value #MAX_ENTRIES} entries are kept, newest last.
 */
public final class RollbackHistory {
  public static final String FILE_NAME = ".rolled-back.json";
  public static final int MAX_ENTRIES = 16;
  private static final int SCHEMA = 1;
  private static final String WHAT = "rollback history";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HostFiles files;
  private final Path path;

  public RollbackHistory(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.path = Objects.requireNonNull(layout, "layout").root().resolve(FILE_NAME);
  }

  public Path path() {
    return path;
  }

  /** Every remembered rollback, oldest first. */
  public List<RolledBackUpgrade> entries() throws IOException {
    if (!files.exists(path)) {
      return List.of();
    }
    return decode(files.read(path));
  }

  /** The rollback of this very upgrade (target version and configuration), if one happened. */
  public Optional<RolledBackUpgrade> find(String targetVersion, String configDigest)
      throws IOException {
    return entries().stream()
        .filter(e -> e.sameUpgrade(targetVersion, configDigest))
        .reduce((a, b) -> b);
  }

  /** Durably remembers a rollback; nothing is written when the same upgrade is already recorded. */
  public void remember(RolledBackUpgrade rollback) throws IOException {
    List<RolledBackUpgrade> all = new ArrayList<>(entries());
    if (all.stream()
        .anyMatch(e -> e.sameUpgrade(rollback.targetVersion(), rollback.configDigest()))) {
      return;
    }
    all.add(rollback);
    while (all.size() > MAX_ENTRIES) {
      all.remove(0);
    }
    files.writeDurably(path, encode(all), UpgradeJournal.MODE);
  }

  /** Durably forgets the rollback of this upgrade; nothing is written when none is recorded. */
  public void forget(String targetVersion, String configDigest) throws IOException {
    List<RolledBackUpgrade> all = new ArrayList<>(entries());
    if (!all.removeIf(e -> e.sameUpgrade(targetVersion, configDigest))) {
      return;
    }
    if (all.isEmpty()) {
      files.removeDurably(path);
    } else {
      files.writeDurably(path, encode(all), UpgradeJournal.MODE);
    }
  }

  private static byte[] encode(List<RolledBackUpgrade> entries) {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    ArrayNode list = root.putArray("rolledBack");
    for (RolledBackUpgrade e : entries) {
      ObjectNode n = list.addObject();
      n.put("targetVersion", e.targetVersion());
      n.put("configDigest", e.configDigest());
      n.put("rolledBackAt", e.rolledBackAt().toString());
      n.put("reason", e.reason());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the rollback history", e);
    }
  }

  private List<RolledBackUpgrade> decode(byte[] content) {
    JsonNode root;
    try {
      root = JSON.readTree(content);
    } catch (IOException e) {
      throw new CorruptStateException(path, WHAT, "not JSON (" + e.getMessage() + ")", e);
    }
    if (root == null
        || !root.isObject()
        || !root.path("schema").isInt()
        || root.path("schema").intValue() != SCHEMA) {
      throw new CorruptStateException(path, WHAT, "not a schema " + SCHEMA + " JSON object");
    }
    JsonNode list = root.get("rolledBack");
    if (list == null || !list.isArray()) {
      throw new CorruptStateException(path, WHAT, "field 'rolledBack' missing or not an array");
    }
    List<RolledBackUpgrade> out = new ArrayList<>();
    for (JsonNode n : list) {
      String version = text(n, "targetVersion");
      if (!VersionNames.isSafe(version)) {
        throw new CorruptStateException(path, WHAT, "'" + version + "' is not a safe version name");
      }
      Instant at;
      try {
        at = Instant.parse(text(n, "rolledBackAt"));
      } catch (DateTimeParseException e) {
        throw new CorruptStateException(path, WHAT, "'rolledBackAt' is not an instant", e);
      }
      out.add(new RolledBackUpgrade(version, text(n, "configDigest"), at, text(n, "reason")));
    }
    return out;
  }

  private String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new CorruptStateException(
          path, WHAT, "an entry's field '" + field + "' is missing or not a string");
    }
    return v.textValue();
  }
}
