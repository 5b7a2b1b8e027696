package dev.noneops.core.node.internal.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.hash.Hashing;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * The files that were at a shared path before this node wrote there, saved durably so they can
 * be put back byte for byte, with their mode and owner, when the node lets the path go (at
 * teardown, or when a configuration no longer needs it). A file that was there before the node
 * came is not the node's: it is saved before the first write and never deleted.
 *
 * <p>One JSON document per path in {@code dir}, named after the sha256 of the path:
 * {@code {"path":…,"kind":"file","mode":"0640","uid":1000,"gid":1000,"content":"<base64>"}} or
 * {@code {"path":…,"kind":"symlink","target":…}}.
 */
public final class OriginalFiles {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DIR_MODE = 0700;

  private final HostFiles files;
  private final Path dir;

  public OriginalFiles(HostFiles files, Path dir) {
    this.files = Objects.requireNonNull(files, "files");
    this.dir = Objects.requireNonNull(dir, "dir");
  }

  /** Where the saved originals live. */
  public Path directory() {
    return dir;
  }

  /** Where the original of {@code path} is (or would be) saved. */
  public Path savedAt(Path path) {
    return dir.resolve(Hashing.sha256()
            .hashString(path.toString(), StandardCharsets.UTF_8)
            .toString()
            .substring(0, 24)
        + ".json");
  }

  /** Whether an original of {@code path} is saved. */
  public boolean has(Path path) throws IOException {
    return files.exists(savedAt(path));
  }

  /**
   * Saves what is at {@code path} now (a regular file or a symlink), durably, in place of any
   * earlier save: the caller takes over a path the node does not own, so what is there now is
   * the host's, and a save left by a take-over a crash interrupted before the path was recorded
   * is older than it.
   *
   * @throws IOException when the entry is neither a regular file nor a symlink
   */
  public void save(Path path, FileMeta meta) throws IOException {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("path", path.toString());
    if (meta.isSymlink()) {
      doc.put("kind", "symlink");
      doc.put("target", files.readLink(path));
    } else if (meta.isRegularFile()) {
      doc.put("kind", "file");
      doc.put("mode", Integer.toOctalString(meta.mode() & 07777));
      doc.put("uid", meta.uid());
      doc.put("gid", meta.gid());
      doc.put("content", Base64.getEncoder().encodeToString(files.read(path)));
    } else {
      throw new IOException(
          "cannot take over " + path + ": a " + meta.type() + " is there, not a file or a link");
    }
    byte[] encoded = JSON.writeValueAsBytes(doc);
    Path saved = savedAt(path);
    if (files.exists(saved) && Arrays.equals(files.read(saved), encoded)) {
      return;
    }
    files.createDirectories(dir, DIR_MODE);
    files.writeDurably(saved, encoded, 0600);
  }

  /**
   * Whether what is at {@code path} ({@code meta}) is the saved original itself: a take-over
   * that a crash interrupted after the path was recorded but before the node wrote it.
   */
  public boolean isSavedOriginal(Path path, FileMeta meta) throws IOException {
    Optional<JsonNode> doc = read(path);
    if (doc.isEmpty()) {
      return false;
    }
    JsonNode d = doc.get();
    if ("symlink".equals(d.path("kind").asText())) {
      return meta.isSymlink() && files.readLink(path).equals(d.path("target").asText());
    }
    return meta.isRegularFile()
        && Integer.toOctalString(meta.mode() & 07777).equals(d.path("mode").asText())
        && Arrays.equals(
            files.read(path), Base64.getDecoder().decode(d.path("content").asText()));
  }

  /**
   * Puts the saved original of {@code path} back in place of what is there (durably: content,
   * mode, then owner) and forgets it; false when none is saved.
   */
  public boolean restore(Path path) throws IOException {
    if (!putBack(path)) {
      return false;
    }
    forget(path);
    return true;
  }

  /**
   * {@link #restore} without forgetting the save: a caller that records first that the node no
   * longer owns the path then {@link #forget}s it, so a crash in between leaves a save of exactly
   * what is there.
   */
  public boolean putBack(Path path) throws IOException {
    Optional<JsonNode> doc = read(path);
    if (doc.isEmpty()) {
      return false;
    }
    JsonNode d = doc.get();
    Optional<FileMeta> now = files.lstat(path);
    if ("symlink".equals(d.path("kind").asText())) {
      if (now.isPresent() && !now.get().isSymlink()) {
        files.removeDurably(path);
      }
      files.symlinkDurably(path, d.path("target").asText());
    } else {
      if (now.isPresent() && !now.get().isRegularFile()) {
        files.removeDurably(path);
      }
      files.writeDurably(
          path,
          Base64.getDecoder().decode(d.path("content").asText()),
          Integer.parseInt(d.path("mode").asText(), 8));
      int uid = d.path("uid").asInt();
      int gid = d.path("gid").asInt();
      Optional<FileMeta> written = files.lstat(path);
      if (written.isPresent() && (written.get().uid() != uid || written.get().gid() != gid)) {
        files.chownDurably(path, uid, gid);
      }
    }
    return true;
  }

  /** Forgets the saved original of {@code path} (it is on the host again, or was never needed). */
  public void forget(Path path) throws IOException {
    Path saved = savedAt(path);
    if (files.exists(saved)) {
      files.removeDurably(saved);
    }
  }

  /** Removes the directory of saved originals when nothing is saved any more. */
  public void removeDirectoryIfEmpty() throws IOException {
    try {
      if (files.exists(dir) && files.list(dir).isEmpty()) {
        files.removeDurably(dir);
      }
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)
          && !HostIOException.hasErrno(e, Errno.ENOTEMPTY)) {
        throw e;
      }
    }
  }

  private Optional<JsonNode> read(Path path) throws IOException {
    Path saved = savedAt(path);
    if (!files.exists(saved)) {
      return Optional.empty();
    }
    try {
      JsonNode doc = JSON.readTree(files.read(saved));
      if (!path.toString().equals(doc.path("path").asText())) {
        throw new IOException(
            "saved original " + saved + " names " + doc.path("path").asText() + ", not " + path);
      }
      return Optional.of(doc);
    } catch (IOException e) {
      if (e instanceof HostIOException) {
        throw e;
      }
      throw new IOException(
          "saved original " + saved + " of " + path + " is unreadable: " + e.getMessage(), e);
    }
  }
}
