package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The saved configuration ("confsnap") at {@link Layout#confsnap()}: a copy of every shared file
 * the node owns, taken before an upgrade writes anything, so that a rollback puts each of them
 * back byte for byte (content, mode, owner; a symlink's target; and absence, which restore turns
 * into a deletion).
 *
 * <p>Each saved file is one entry, written durably; the {@value #MARKER} marker, listing every
 * entry with its SHA-256, is written last. A snapshot without the marker is incomplete: it was
 * being saved or being dropped, and is never restored. {@link #drop()} removes the marker first
 * for exactly that reason, so a half-dropped snapshot is never taken for a complete one.
 *
 * <p>Which files are saved is the caller's decision: the node's ownership record plus every path
 * the new configuration will write, so that a file the upgrade creates is recorded as absent.
 * Every entry must name, normalised, one of the shared paths the node owns (derived from its
 * {@link HostPaths}); a snapshot with any other entry is refused as a whole, naming the entry,
 * before anything is restored.
 */
public final class SavedConfiguration {
  /** The completion marker, written last. */
  public static final String MARKER = "COMPLETE";

  public static final int DIR_MODE = 0700;
  public static final int ENTRY_MODE = 0600;
  private static final int PARENT_MODE = 0755;
  private static final int SCHEMA = 1;
  private static final String WHAT = "saved configuration";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether a snapshot is present and complete. */
  public enum State {
    ABSENT,
    INCOMPLETE,
    COMPLETE
  }

  private final HostFiles files;
  private final Path dir;
  private final SharedPathScope scope;
  private final OwnershipStore ownership;

  /** The saved configuration of the node with {@code layout} whose shared paths are {@code hostPaths}'. */
  public SavedConfiguration(HostFiles files, Layout layout, HostPaths hostPaths) {
    this.files = Objects.requireNonNull(files, "files");
    this.dir = Objects.requireNonNull(layout, "layout").confsnap();
    this.scope = new SharedPathScope(hostPaths);
    this.ownership = new OwnershipStore(files, hostPaths.ownershipRecord());
  }

  /** The snapshot directory. */
  public Path directory() {
    return dir;
  }

  public State state() throws IOException {
    if (!files.exists(dir)) {
      return State.ABSENT;
    }
    return files.exists(dir.resolve(MARKER)) ? State.COMPLETE : State.INCOMPLETE;
  }

  /**
   * Durably saves {@code paths} (each entry, then the marker). There must be no snapshot yet:
   * the caller discards a stale one with {@link #drop()} first.
   *
   * @return what was saved, in path order
   */
  public List<SavedFile> save(Collection<Path> paths) throws IOException {
    if (files.exists(dir)) {
      throw new IllegalStateException(
          "a saved configuration already exists at " + dir + "; drop it before saving another");
    }
    TreeSet<Path> sorted = new TreeSet<>();
    for (Path p : paths) {
      if (!p.isAbsolute()) {
        throw new IllegalArgumentException("a shared file to save must be an absolute path: " + p);
      }
      if (p.startsWith(dir)) {
        throw new IllegalArgumentException("the saved configuration cannot contain itself: " + p);
      }
      sorted.add(p.normalize());
    }
    List<SavedFile> saved = new ArrayList<>();
    for (Path p : sorted) {
      capture(p).ifPresent(saved::add);
    }
    for (SavedFile s : saved) {
      scope.refusal(s.path(), s.kind()).ifPresent(why -> {
        throw new IllegalArgumentException("refusing to save " + s + ": " + why);
      });
    }
    files.createDirectories(dir, DIR_MODE);
    Map<String, String> digests = new LinkedHashMap<>();
    int index = 0;
    for (SavedFile s : saved) {
      String name = String.format("entry-%05d.json", index++);
      byte[] entry = encodeEntry(s);
      files.writeDurably(dir.resolve(name), entry, ENTRY_MODE);
      digests.put(name, sha256(entry));
    }
    files.writeDurably(dir.resolve(MARKER), encodeMarker(digests), ENTRY_MODE);
    return List.copyOf(saved);
  }

  /**
   * Every saved file of a complete snapshot, in path order, each verified against the marker.
   *
   * @throws CorruptStateException when the snapshot is absent, incomplete or damaged, or an entry
   *     names a path outside the node's shared paths
   */
  public List<SavedFile> read() throws IOException {
    State state = state();
    if (state != State.COMPLETE) {
      throw new CorruptStateException(
          dir,
          WHAT,
          state == State.ABSENT
              ? "there is none"
              : "the completion marker " + MARKER + " is missing");
    }
    Path marker = dir.resolve(MARKER);
    Map<String, String> digests = decodeMarker(marker, files.read(marker));
    List<SavedFile> out = new ArrayList<>();
    for (Map.Entry<String, String> e : digests.entrySet()) {
      Path entryPath = dir.resolve(e.getKey());
      if (!files.exists(entryPath)) {
        throw new CorruptStateException(
            entryPath, WHAT + " entry", "listed in " + MARKER + " but missing");
      }
      byte[] content = files.read(entryPath);
      if (!sha256(content).equals(e.getValue())) {
        throw new CorruptStateException(
            entryPath, WHAT + " entry", "its SHA-256 differs from the one in " + MARKER);
      }
      out.add(decodeEntry(entryPath, content));
    }
    return out;
  }

  /**
   * Puts every saved file back, durably, deepest path first: rewrites a file whose content, mode
   * or owner differs, re-points a symlink, deletes what was absent (a directory only once it is
   * empty; one that holds entries nobody saved is left; at a path the node owns only as a
   * directory, nothing but an empty directory). Files already as saved are not touched,
   * so restoring twice changes nothing the second time. A path the node disowned since the save
   * (something else replaced its link) is left as it is: it is no longer the node's to restore.
   *
   * @return the paths that had to be changed
   */
  public List<Path> restore() throws IOException {
    List<SavedFile> saved = new ArrayList<>(read());
    Collections.reverse(saved);
    Set<Path> disowned = new HashSet<>();
    ownership.disowned().forEach(d -> disowned.add(d.path()));
    List<Path> changed = new ArrayList<>();
    for (SavedFile s : saved) {
      if (!disowned.contains(s.path()) && restoreOne(s)) {
        changed.add(s.path());
      }
    }
    Collections.reverse(changed);
    return changed;
  }

  /**
   * Durably removes the snapshot: the marker first, then every entry (and any temp file a crash
   * left), then the directory. Nothing to do when there is no snapshot.
   */
  public void drop() throws IOException {
    if (!files.exists(dir)) {
      return;
    }
    Path marker = dir.resolve(MARKER);
    if (files.exists(marker)) {
      files.removeDurably(marker);
    }
    for (String name : files.list(dir)) {
      files.removeDurably(dir.resolve(name));
    }
    files.removeDurably(dir);
  }

  /**
   * What is at {@code path} now, as a saved file; empty for an existing directory, which is left
   * as it is (a directory that does not exist yet is saved as absent, so a restore removes it
   * again once it is empty).
   */
  public Optional<SavedFile> capture(Path path) throws IOException {
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isEmpty()) {
      return Optional.of(SavedFile.absent(path));
    }
    FileMeta m = meta.get();
    return switch (m.type()) {
      case REGULAR ->
        Optional.of(SavedFile.file(path, files.read(path), m.mode() & 07777, m.uid(), m.gid()));
      case SYMLINK -> Optional.of(SavedFile.symlink(path, files.readLink(path)));
      case DIRECTORY -> Optional.empty();
      default ->
        throw new IllegalStateException("cannot save shared file " + path + ": it is a "
            + m.type().name().toLowerCase(Locale.ROOT) + ", not a file or symlink");
    };
  }

  private boolean restoreOne(SavedFile s) throws IOException {
    Path path = s.path();
    Optional<FileMeta> now = files.lstat(path);
    switch (s.kind()) {
      case ABSENT -> {
        if (now.isEmpty()) {
          return false;
        }
        if (now.get().isDirectory() ? !files.list(path).isEmpty() : scope.onlyAsDirectory(path)) {
          return false;
        }
        files.removeDurably(path);
        return true;
      }
      case SYMLINK -> {
        if (now.isPresent()
            && now.get().isSymlink()
            && files.readLink(path).equals(s.linkTarget())) {
          return false;
        }
        ensureParent(path);
        if (now.isPresent() && !now.get().isSymlink()) {
          files.removeDurably(path);
        }
        files.symlinkDurably(path, s.linkTarget());
        return true;
      }
      case FILE -> {
        if (now.isPresent() && now.get().isRegularFile() && sameFile(now.get(), s)) {
          return false;
        }
        ensureParent(path);
        if (now.isPresent() && now.get().isDirectory()) {
          files.removeDurably(path);
        }
        files.writeDurably(path, s.content(), s.mode());
        FileMeta written = files
            .lstat(path)
            .orElseThrow(() -> new IllegalStateException("restored file vanished: " + path));
        if (written.uid() != s.uid() || written.gid() != s.gid()) {
          files.chownDurably(path, s.uid(), s.gid());
          files.syncDirectory(path.getParent());
        }
        return true;
      }
      default -> throw new IllegalStateException("unknown saved file kind " + s.kind());
    }
  }

  private boolean sameFile(FileMeta meta, SavedFile s) throws IOException {
    return (meta.mode() & 07777) == s.mode()
        && meta.uid() == s.uid()
        && meta.gid() == s.gid()
        && meta.size() == s.content().length
        && Arrays.equals(files.read(s.path()), s.content());
  }

  private void ensureParent(Path path) throws IOException {
    Path parent = path.getParent();
    if (parent != null && !files.exists(parent)) {
      files.createDirectories(parent, PARENT_MODE);
    }
  }

  private static byte[] encodeEntry(SavedFile s) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", SCHEMA);
    n.put("path", s.path().toString());
    n.put("kind", s.kind().name());
    switch (s.kind()) {
      case FILE -> {
        n.put("mode", s.mode());
        n.put("uid", s.uid());
        n.put("gid", s.gid());
        n.put("content", Base64.getEncoder().encodeToString(s.content()));
      }
      case SYMLINK -> n.put("target", s.linkTarget());
      case ABSENT -> {}
      default -> throw new IllegalStateException("unknown saved file kind " + s.kind());
    }
    return bytes(n);
  }

  private SavedFile decodeEntry(Path entryPath, byte[] content) {
    JsonNode n = parse(entryPath, content);
    if (!n.path("schema").isInt() || n.path("schema").intValue() != SCHEMA) {
      throw new CorruptStateException(entryPath, WHAT + " entry", "not schema " + SCHEMA);
    }
    Path path;
    SavedFile.Kind kind;
    try {
      path = Path.of(text(entryPath, n, "path"));
      kind = SavedFile.Kind.valueOf(text(entryPath, n, "kind"));
    } catch (IllegalArgumentException e) {
      throw new CorruptStateException(entryPath, WHAT + " entry", e.getMessage(), e);
    }
    scope.refusal(path, kind).ifPresent(why -> {
      throw new CorruptStateException(entryPath, WHAT + " entry", why);
    });
    try {
      return switch (kind) {
        case FILE ->
          SavedFile.file(
              path,
              Base64.getDecoder().decode(text(entryPath, n, "content")),
              integer(entryPath, n, "mode"),
              integer(entryPath, n, "uid"),
              integer(entryPath, n, "gid"));
        case SYMLINK -> SavedFile.symlink(path, text(entryPath, n, "target"));
        case ABSENT -> SavedFile.absent(path);
      };
    } catch (IllegalArgumentException e) {
      throw new CorruptStateException(entryPath, WHAT + " entry", e.getMessage(), e);
    }
  }

  private static byte[] encodeMarker(Map<String, String> digests) {
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", SCHEMA);
    ObjectNode entries = n.putObject("entries");
    digests.forEach(entries::put);
    return bytes(n);
  }

  private static Map<String, String> decodeMarker(Path marker, byte[] content) {
    JsonNode n = parse(marker, content);
    if (!n.path("schema").isInt() || n.path("schema").intValue() != SCHEMA) {
      throw new CorruptStateException(marker, WHAT + " marker", "not schema " + SCHEMA);
    }
    JsonNode entries = n.get("entries");
    if (entries == null || !entries.isObject()) {
      throw new CorruptStateException(
          marker, WHAT + " marker", "field 'entries' missing or not an object");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = entries.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getKey().matches("entry-[0-9]{5}\\.json") || !e.getValue().isTextual()) {
        throw new CorruptStateException(marker, WHAT + " marker", "bad entry '" + e.getKey() + "'");
      }
      out.put(e.getKey(), e.getValue().textValue());
    }
    return out;
  }

  private static JsonNode parse(Path path, byte[] content) {
    try {
      JsonNode n = JSON.readTree(content);
      if (n == null || !n.isObject()) {
        throw new CorruptStateException(path, WHAT, "not a JSON object");
      }
      return n;
    } catch (IOException e) {
      throw new CorruptStateException(path, WHAT, "not JSON (" + e.getMessage() + ")", e);
    }
  }

  private static String text(Path path, JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new CorruptStateException(
          path, WHAT + " entry", "field '" + field + "' missing or not a string");
    }
    return v.textValue();
  }

  private static int integer(Path path, JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isInt()) {
      throw new CorruptStateException(
          path, WHAT + " entry", "field '" + field + "' missing or not an integer");
    }
    return v.intValue();
  }

  private static byte[] bytes(JsonNode n) {
    try {
      return JSON.writeValueAsBytes(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the saved configuration", e);
    }
  }

  public static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
