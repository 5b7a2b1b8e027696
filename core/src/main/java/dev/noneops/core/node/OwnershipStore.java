package dev.noneops.core.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Loads and durably saves the {@link OwnershipRecord} as JSON (mode 0600) at one path,
 * normally {@code HostPaths.ownershipRecord()}:
 *
 * <pre>
 * {"format":1,"entries":[{"path":"/etc/containerd/config.toml","kind":"file","sha256":"…","mode":"0644"},
 *                        {"path":"/opt/cni/bin/bridge","kind":"symlink","target":"…"},
 *                        {"path":"/etc/containerd","kind":"directory","mode":"0755"}]}
 * </pre>
 */
final class OwnershipStore {
  static final int FORMAT = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final HostFiles files;
  private final Path recordPath;

  public OwnershipStore(HostFiles files, Path recordPath) {
    this.files = Objects.requireNonNull(files, "files");
    this.recordPath = Objects.requireNonNull(recordPath, "recordPath");
  }

  public Path path() {
    return recordPath;
  }

  /** The saved record; {@link OwnershipRecord#EMPTY} when none was saved yet. */
  public OwnershipRecord load() throws IOException {
    if (!files.exists(recordPath)) {
      return OwnershipRecord.EMPTY;
    }
    byte[] content = files.read(recordPath);
    try {
      return parse(content);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "ownership record " + recordPath + " is unreadable: " + e.getMessage(), e);
    }
  }

  /** Durably replaces the saved record, creating its directory (0750) if needed. */
  public void save(OwnershipRecord record) throws IOException {
    files.createDirectories(recordPath.getParent(), 0750);
    files.writeDurably(recordPath, serialize(record), 0600);
  }

  /** Durably removes the saved record; nothing happens when there is none. */
  public void delete() throws IOException {
    if (files.exists(recordPath)) {
      files.removeDurably(recordPath);
    }
  }

  static byte[] serialize(OwnershipRecord record) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    ArrayNode entries = root.putArray("entries");
    for (OwnedEntry e : record.entries()) {
      ObjectNode node = entries.addObject();
      node.put("path", e.path().toString());
      node.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
      switch (e.kind()) {
        case FILE -> {
          node.put("sha256", e.fingerprint());
          node.put("mode", octal(e.mode()));
        }
        case SYMLINK -> node.put("target", e.fingerprint());
        case DIRECTORY -> node.put("mode", octal(e.mode()));
      }
    }
    return JSON.writeValueAsBytes(root);
  }

  static OwnershipRecord parse(byte[] content) throws IOException {
    JsonNode root = JSON.readTree(content);
    if (root == null || root.path("format").asInt(-1) != FORMAT) {
      throw new IOException("unknown format " + (root == null ? "(empty)" : root.path("format")));
    }
    List<OwnedEntry> entries = new ArrayList<>();
    for (JsonNode node : root.path("entries")) {
      OwnedEntry.Kind kind =
          OwnedEntry.Kind.valueOf(node.path("kind").asText().toUpperCase(Locale.ROOT));
      Path path = Path.of(node.path("path").asText());
      entries.add(
          switch (kind) {
            case FILE -> new OwnedEntry(path, kind, node.path("sha256").asText(), mode(node));
            case SYMLINK -> new OwnedEntry(path, kind, node.path("target").asText(), 0);
            case DIRECTORY -> new OwnedEntry(path, kind, "", mode(node));
          });
    }
    return OwnershipRecord.of(entries);
  }

  private static String octal(int mode) {
    return String.format("%04o", mode);
  }

  private static int mode(JsonNode node) {
    return Integer.parseInt(node.path("mode").asText("0"), 8);
  }
}
