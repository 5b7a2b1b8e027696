package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Loads and durably saves the {@link OwnershipRecord} as JSON (mode 0600) at one path,
 * normally {@code HostPaths.ownershipRecord()}:
 *
 * <pre>
 * {"format":1,"entries":[{"path":"/etc/containerd/config.toml","kind":"file","sha256":"…","mode":"0644"},
 *                        {"path":"/opt/cni/bin/bridge","kind":"symlink","target":"…"},
 *                        {"path":"/etc/containerd","kind":"directory","mode":"0755"}]}
 * </pre>
 *
 * <p>Beside it, {@value #DISOWNED_FILE} lists the paths the node no longer owns because something
 * else replaced what it had written there (a CNI installer's binary renamed over the node's
 * plugin link): {@code {"format":1,"paths":[{"path":"/opt/cni/bin/host-local","found":"regular
 * file"}]}}. {@link #load()} leaves those paths out of the record, so nothing the node does with
 * its record (rewrite, save for an upgrade, remove at teardown) touches them again. The list is
 * never part of an upgrade's saved configuration: a rollback does not take a path back from what
 * replaced it.
 */
public final class OwnershipStore {
  /** The file beside the record that lists the disowned paths. */
  public static final String DISOWNED_FILE = "disowned.json";

  public static final int FORMAT = 1;
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

  /** Where the disowned paths are listed. */
  public Path disownedPath() {
    return recordPath.resolveSibling(DISOWNED_FILE);
  }

  /**
   * The saved record without the disowned paths; {@link OwnershipRecord#EMPTY} when none was
   * saved yet.
   */
  public OwnershipRecord load() throws IOException {
    if (!files.exists(recordPath)) {
      return OwnershipRecord.EMPTY;
    }
    byte[] content = files.read(recordPath);
    OwnershipRecord record;
    try {
      record = parse(content);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "ownership record " + recordPath + " is unreadable: " + e.getMessage(), e);
    }
    for (Disowned d : disowned()) {
      record = record.without(d.path());
    }
    return record;
  }

  /**
   * A path the node no longer owns.
   *
   * @param path the absolute host path
   * @param found what replaced the node's entry there, e.g. {@code regular file}
   */
  public record Disowned(Path path, String found) {
    public Disowned {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(found, "found");
    }
  }

  /** The disowned paths, sorted; empty when there are none. */
  public List<Disowned> disowned() throws IOException {
    Path list = disownedPath();
    if (!files.exists(list)) {
      return List.of();
    }
    try {
      JsonNode root = JSON.readTree(files.read(list));
      if (root == null || root.path("format").asInt(-1) != FORMAT) {
        throw new IOException("unknown format " + (root == null ? "(empty)" : root.path("format")));
      }
      TreeMap<Path, Disowned> out = new TreeMap<>();
      for (JsonNode node : root.path("paths")) {
        Path path = Path.of(node.path("path").asText());
        if (!path.isAbsolute()) {
          throw new IOException("path '" + path + "' is not absolute");
        }
        out.put(path, new Disowned(path, node.path("found").asText()));
      }
      return List.copyOf(out.values());
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "list of disowned paths " + list + " is unreadable: " + e.getMessage(), e);
    }
  }

  /** Durably adds {@code path} to the disowned paths, {@code found} saying what replaced it. */
  public void disown(Path path, String found) throws IOException {
    TreeMap<Path, Disowned> all = new TreeMap<>();
    disowned().forEach(d -> all.put(d.path(), d));
    all.put(path, new Disowned(path, found));
    saveDisowned(all.values());
  }

  /** Durably removes {@code path} from the disowned paths (the node owns it again). */
  public void reown(Path path) throws IOException {
    List<Disowned> all = new ArrayList<>(disowned());
    if (all.removeIf(d -> d.path().equals(path))) {
      saveDisowned(all);
    }
  }

  private void saveDisowned(Collection<Disowned> all) throws IOException {
    Path list = disownedPath();
    if (all.isEmpty()) {
      if (files.exists(list)) {
        files.removeDurably(list);
      }
      return;
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    ArrayNode paths = root.putArray("paths");
    for (Disowned d : all) {
      paths.addObject().put("path", d.path().toString()).put("found", d.found());
    }
    files.createDirectories(list.getParent(), 0750);
    files.writeDurably(list, JSON.writeValueAsBytes(root), 0600);
  }

  /** Durably replaces the saved record, creating its directory (0750) if needed. */
  public void save(OwnershipRecord record) throws IOException {
    files.createDirectories(recordPath.getParent(), 0750);
    files.writeDurably(recordPath, serialize(record), 0600);
  }

  /** Durably removes the list of disowned paths, then the saved record; nothing to do when there is none. */
  public void delete() throws IOException {
    saveDisowned(List.of());
    if (files.exists(recordPath)) {
      files.removeDurably(recordPath);
    }
  }

  public static byte[] serialize(OwnershipRecord record) throws IOException {
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

  public static OwnershipRecord parse(byte[] content) throws IOException {
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
