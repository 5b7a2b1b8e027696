package dev.noneops.core.node.internal.files;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * One shared file as it was when the configuration was saved: a regular file (content, mode,
 * owner), a symlink (its target, verbatim), or nothing at all, in which case restoring it deletes
 * whatever the upgrade put there.
 */
public record SavedFile(
    Path path, Kind kind, byte[] content, int mode, int uid, int gid, String linkTarget) {

  /** What was at the path. */
  public enum Kind {
    FILE,
    SYMLINK,
    ABSENT
  }

  public SavedFile {
    Objects.requireNonNull(path, "path");
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("saved file path must be absolute: " + path);
    }
    Objects.requireNonNull(kind, "kind");
    content = content == null ? new byte[0] : content.clone();
    linkTarget = linkTarget == null ? "" : linkTarget;
    if (kind == Kind.SYMLINK && linkTarget.isEmpty()) {
      throw new IllegalArgumentException("a saved symlink needs a target: " + path);
    }
  }

  public static SavedFile file(Path path, byte[] content, int mode, int uid, int gid) {
    return new SavedFile(path, Kind.FILE, content, mode, uid, gid, "");
  }

  public static SavedFile symlink(Path path, String target) {
    return new SavedFile(path, Kind.SYMLINK, new byte[0], 0777, 0, 0, target);
  }

  public static SavedFile absent(Path path) {
    return new SavedFile(path, Kind.ABSENT, new byte[0], 0, 0, 0, "");
  }

  @Override
  public byte[] content() {
    return content.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SavedFile s
        && path.equals(s.path)
        && kind == s.kind
        && Arrays.equals(content, s.content)
        && mode == s.mode
        && uid == s.uid
        && gid == s.gid
        && linkTarget.equals(s.linkTarget);
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, kind, Arrays.hashCode(content), mode, uid, gid, linkTarget);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case FILE ->
        "file " + path + " (" + content.length + " bytes, mode " + Integer.toOctalString(mode)
            + ", " + uid + ":" + gid + ")";
      case SYMLINK -> "symlink " + path + " -> " + linkTarget;
      case ABSENT -> "absent " + path;
    };
  }
}
