package dev.noneops.core.node.internal.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * The durable upgrade journal at {@link Layout#journal()}: written (temp, fsync, rename, fsync
 * the directory) before the first change an upgrade makes and removed (unlink, fsync the
 * directory) only once the node is consistent again. Its presence is what tells
 * the recovery that an upgrade was in flight.
 *
 * <p>The file carries a schema number; a newer schema, a missing field or malformed JSON is a
 * {@link CorruptStateException} naming the file, never silently ignored. The optional fields,
 * {@code targetLocalDns} (the target's LocalDNS interface) and {@code owner} (the process that
 * ran the upgrade: pid, start time, boot id), are absent from journals written before they were
 * recorded, and then read as unknown.
 */
public final class UpgradeJournal {
  /** The schema this code writes and understands. */
  public static final int SCHEMA = 1;

  public static final int MODE = 0600;
  private static final String WHAT = "upgrade journal";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HostFiles files;
  private final Path path;

  public UpgradeJournal(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.path = Objects.requireNonNull(layout, "layout").journal();
  }

  /** Where the journal lives. */
  public Path path() {
    return path;
  }

  /** Whether a journal is present (an upgrade is in flight or was interrupted). */
  public boolean exists() throws IOException {
    return files.exists(path);
  }

  /** Durably records {@code record}, replacing any previous journal. */
  public void write(UpgradeRecord record) throws IOException {
    files.writeDurably(path, encode(record), MODE);
  }

  /** The recorded upgrade; empty when there is no journal. */
  public Optional<UpgradeRecord> read() throws IOException {
    if (!files.exists(path)) {
      return Optional.empty();
    }
    return Optional.of(decode(path, files.read(path)));
  }

  /** Durably removes the journal; nothing to do when it is already gone. */
  public void remove() throws IOException {
    if (files.exists(path)) {
      files.removeDurably(path);
    }
  }

  public static byte[] encode(UpgradeRecord record) {
    ObjectNode node = JSON.createObjectNode();
    node.put("schema", SCHEMA);
    node.put("previousVersion", record.previousVersion());
    node.put("targetVersion", record.targetVersion());
    node.put("configDigest", record.configDigest());
    node.put("startedAt", record.startedAt().toString());
    record.targetLocalDns().ifPresent(dns -> {
      ObjectNode n = node.putObject("targetLocalDns");
      n.put("interfaceName", dns.name());
      n.put("bindAddress", dns.address());
    });
    record.owner().ifPresent(owner -> {
      ObjectNode n = node.putObject("owner");
      n.put("pid", owner.pid());
      n.put("startTime", owner.startTime());
      n.put("bootId", owner.bootId());
    });
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the upgrade journal", e);
    }
  }

  public static UpgradeRecord decode(Path path, byte[] content) {
    JsonNode node;
    try {
      node = JSON.readTree(content);
    } catch (IOException e) {
      throw new CorruptStateException(path, WHAT, "not JSON (" + e.getMessage() + ")", e);
    }
    if (node == null || !node.isObject()) {
      throw new CorruptStateException(path, WHAT, "not a JSON object: " + abbreviate(content));
    }
    JsonNode schema = node.get("schema");
    if (schema == null || !schema.isInt()) {
      throw new CorruptStateException(path, WHAT, "field 'schema' missing or not an integer");
    }
    if (schema.intValue() != SCHEMA) {
      throw new CorruptStateException(
          path,
          WHAT,
          "schema " + schema.intValue() + " is not the supported schema " + SCHEMA
              + " (written by another agent version?)");
    }
    String previous = versionField(path, node, "previousVersion");
    String target = versionField(path, node, "targetVersion");
    String digest = textField(path, node, "configDigest");
    String started = textField(path, node, "startedAt");
    Instant startedAt;
    try {
      startedAt = Instant.parse(started);
    } catch (DateTimeParseException e) {
      throw new CorruptStateException(
          path, WHAT, "field 'startedAt' is not an instant: '" + started + "'", e);
    }
    if (digest.isBlank()) {
      throw new CorruptStateException(path, WHAT, "field 'configDigest' is blank");
    }
    return new UpgradeRecord(
        previous, target, digest, startedAt, localDns(path, node), owner(path, node));
  }

  /** The upgrade's owner; empty when the field is absent (a journal of a previous format). */
  private static Optional<UpgradeRecord.Owner> owner(Path path, JsonNode node) {
    JsonNode owner = node.get("owner");
    if (owner == null || owner.isNull()) {
      return Optional.empty();
    }
    if (!owner.isObject()) {
      throw new CorruptStateException(path, WHAT, "field 'owner' is not an object");
    }
    long pid = longField(path, owner, "pid");
    long startTime = longField(path, owner, "startTime");
    String bootId = textField(path, owner, "bootId");
    try {
      return Optional.of(new UpgradeRecord.Owner(pid, startTime, bootId));
    } catch (IllegalArgumentException e) {
      throw new CorruptStateException(path, WHAT, "field 'owner': " + e.getMessage(), e);
    }
  }

  private static long longField(Path path, JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
      throw new CorruptStateException(
          path, WHAT, "field 'owner." + field + "' missing or not an integer");
    }
    return value.longValue();
  }

  /** The target's LocalDNS interface; empty when the field is absent (a journal of the previous format). */
  private static Optional<LocalDnsInterface> localDns(Path path, JsonNode node) {
    JsonNode dns = node.get("targetLocalDns");
    if (dns == null || dns.isNull()) {
      return Optional.empty();
    }
    if (!dns.isObject()) {
      throw new CorruptStateException(path, WHAT, "field 'targetLocalDns' is not an object");
    }
    String name = textField(path, dns, "interfaceName");
    String address = textField(path, dns, "bindAddress");
    if (!LocalDnsInterface.isInterfaceName(name)) {
      throw new CorruptStateException(
          path,
          WHAT,
          "field 'targetLocalDns.interfaceName' is not a Linux interface name: '" + name + "'");
    }
    if (address.isBlank()) {
      throw new CorruptStateException(path, WHAT, "field 'targetLocalDns.bindAddress' is blank");
    }
    return Optional.of(new LocalDnsInterface(name, address));
  }

  private static String versionField(Path path, JsonNode node, String field) {
    String value = textField(path, node, field);
    if (!VersionNames.isSafe(value)) {
      throw new CorruptStateException(
          path, WHAT, "field '" + field + "' is not a safe version name: '" + value + "'");
    }
    return value;
  }

  private static String textField(Path path, JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new CorruptStateException(path, WHAT, "field '" + field + "' missing or not a string");
    }
    return value.textValue();
  }

  private static String abbreviate(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    return text.length() <= 80 ? "'" + text + "'" : "'" + text.substring(0, 80) + "...'";
  }
}
