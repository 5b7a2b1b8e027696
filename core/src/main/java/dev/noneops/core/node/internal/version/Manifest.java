package dev.noneops.core.node.internal.version;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.core.layout.VersionNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A version directory's {@code MANIFEST.json}: every installed file with its size, mode and
 * sha256, sorted by path, and (since stamps were introduced) the {@link FileStamp} the file had
 * when the manifest was written. Written last and durably; its presence and validity are what make
 * a version complete.
 *
 * <pre>
 * {"format":1,"version":"1.31.2-ab12…","files":[{"path":"bin/kubelet","size":123,"mode":"0755","sha256":"…",
 *   "inode":1234,"ctimeNs":1767225600123456789,"mtimeNs":1767225600123456789}]}
 * </pre>
 *
 * The stamp fields are optional, so manifests written before them stay valid (their versions are
 * simply verified by content), and readers that do not know them ignore them.
 */
public record Manifest(String version, List<Entry> files) {
  public static final int FORMAT = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  public Manifest {
    VersionNames.requireSafe(version);
    List<Entry> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparing(Entry::path));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).path().equals(sorted.get(i - 1).path())) {
        throw new IllegalArgumentException("manifest lists " + sorted.get(i).path() + " twice");
      }
    }
    files = List.copyOf(sorted);
  }

  /**
   * One installed file; {@code path} is relative to the version directory. {@code stamp} is the
   * file's metadata when the manifest was written, empty in manifests from before stamps or from
   * hosts that report no file times.
   */
  public record Entry(String path, long size, int mode, String sha256, Optional<FileStamp> stamp) {
    /** An entry without a stamp. */
    public Entry(String path, long size, int mode, String sha256) {
      this(path, size, mode, sha256, Optional.empty());
    }

    public Entry {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(stamp, "stamp");
      ArchivePaths.requireRelative(path);
      if (size < 0) {
        throw new IllegalArgumentException("negative size for " + path);
      }
      if (mode != 0755 && mode != 0644) {
        throw new IllegalArgumentException(
            "unexpected mode " + Integer.toOctalString(mode) + " for " + path);
      }
      if (!SHA256.matcher(sha256).matches()) {
        throw new IllegalArgumentException("not a sha256 for " + path + ": " + sha256);
      }
    }

    /** This entry with the stamp {@code stamp} (or none). */
    public Entry withStamp(Optional<FileStamp> newStamp) {
      return new Entry(path, size, mode, sha256, newStamp);
    }
  }

  /** Whether every entry has a stamp (an empty manifest has nothing to stamp, so it does). */
  public boolean fullyStamped() {
    return files.stream().allMatch(e -> e.stamp().isPresent());
  }

  public byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("version", version);
    ArrayNode list = root.putArray("files");
    for (Entry e : files) {
      ObjectNode node = list.addObject();
      node.put("path", e.path());
      node.put("size", e.size());
      node.put("mode", String.format("%04o", e.mode()));
      node.put("sha256", e.sha256());
      e.stamp().ifPresent(stamp -> {
        node.put("inode", stamp.inode());
        node.put("ctimeNs", stamp.ctimeNanos());
        node.put("mtimeNs", stamp.mtimeNanos());
      });
    }
    try {
      return JSON.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException("manifest cannot be written as JSON", e);
    }
  }

  /** Parses a manifest; any defect is an {@link IOException} saying what is wrong. */
  public static Manifest parse(byte[] content) throws IOException {
    try {
      JsonNode root = JSON.readTree(content);
      if (root == null || !root.isObject()) {
        throw new IOException("not a JSON object");
      }
      if (root.path("format").asInt(-1) != FORMAT) {
        throw new IOException("unknown manifest format " + root.path("format"));
      }
      JsonNode list = root.path("files");
      if (!list.isArray()) {
        throw new IOException("no files list");
      }
      List<Entry> entries = new ArrayList<>();
      for (JsonNode node : list) {
        if (!node.path("size").canConvertToLong()) {
          throw new IOException("entry without a size: " + node);
        }
        entries.add(new Entry(
            node.path("path").asText(),
            node.path("size").asLong(),
            Integer.parseInt(node.path("mode").asText(), 8),
            node.path("sha256").asText(),
            stamp(node)));
      }
      return new Manifest(root.path("version").asText(), entries);
    } catch (IOException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static final List<String> STAMP_FIELDS = List.of("inode", "ctimeNs", "mtimeNs");

  /** The entry's stamp: all three fields or none; anything in between is a defect. */
  private static Optional<FileStamp> stamp(JsonNode node) throws IOException {
    long present = STAMP_FIELDS.stream().filter(node::has).count();
    if (present == 0) {
      return Optional.empty();
    }
    for (String field : STAMP_FIELDS) {
      JsonNode value = node.path(field);
      if (!value.isIntegralNumber() || !value.canConvertToLong()) {
        throw new IOException("entry " + node.path("path").asText() + ": " + field
            + " is missing or not a whole number: " + value);
      }
    }
    return Optional.of(new FileStamp(
        node.path("inode").asLong(),
        node.path("ctimeNs").asLong(),
        node.path("mtimeNs").asLong()));
  }
}
