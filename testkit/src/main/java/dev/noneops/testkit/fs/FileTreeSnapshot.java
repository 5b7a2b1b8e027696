package dev.noneops.testkit.fs;

import dev.noneops.ports.files.FileType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A deterministic dump of a file tree: for every entry its path, type, mode, owner and the SHA-256
 * of its content (files), its target (symlinks) or its device number (nodes). Two snapshots are
 * equal exactly when the trees are byte-identical, so a test can assert "nothing changed".
 */
public final class FileTreeSnapshot {
  /** One entry, as one line of the dump. */
  public record Entry(String path, FileType type, int mode, int uid, int gid, String detail) {
    @Override
    public String toString() {
      return path + " " + type.name().toLowerCase(Locale.ROOT) + " 0" + Integer.toOctalString(mode)
          + " " + uid + ":" + gid + (detail.isEmpty() ? "" : " " + detail);
    }
  }

  private final Map<String, Entry> entries;

  private FileTreeSnapshot(Map<String, Entry> entries) {
    this.entries = entries;
  }

  static FileTreeSnapshot of(List<SimFileSystem.WalkEntry> walk, Predicate<String> include) {
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (SimFileSystem.WalkEntry w : walk) {
      if (!include.test(w.path())) {
        continue;
      }
      String detail = switch (w.type()) {
        case REGULAR -> "sha256=" + sha256(w.content()) + " size=" + w.content().length;
        case SYMLINK -> "-> " + w.linkTarget();
        case CHAR_DEVICE, BLOCK_DEVICE -> w.major() + ":" + w.minor();
        default -> "";
      };
      entries.put(w.path(), new Entry(w.path(), w.type(), w.mode(), w.uid(), w.gid(), detail));
    }
    return new FileTreeSnapshot(entries);
  }

  /** The entries, sorted by path. */
  public List<Entry> entries() {
    return List.copyOf(entries.values());
  }

  /** The entry at {@code path}, or null. */
  public Entry entry(String path) {
    return entries.get(path);
  }

  /** The paths, sorted. */
  public List<String> paths() {
    return List.copyOf(entries.keySet());
  }

  /** The differences from {@code before} to this snapshot, one readable line each ({@code +}, {@code -}, {@code ~}). */
  public List<String> diff(FileTreeSnapshot before) {
    List<String> out = new ArrayList<>();
    TreeSet<String> all = new TreeSet<>(entries.keySet());
    all.addAll(before.entries.keySet());
    for (String path : all) {
      Entry was = before.entries.get(path);
      Entry now = entries.get(path);
      if (was == null) {
        out.add("+ " + now);
      } else if (now == null) {
        out.add("- " + was);
      } else if (!was.equals(now)) {
        out.add("~ " + was + "  =>  " + now);
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileTreeSnapshot other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return Objects.hash(entries);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (Entry e : entries.values()) {
      out.append(e).append('\n');
    }
    return out.toString();
  }

  static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }
}
