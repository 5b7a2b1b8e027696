package dev.noneops.core.node.internal.files;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One shared path this node wrote.
 *
 * @param path the absolute host path
 * @param kind what was written there
 * @param fingerprint for a {@link Kind#FILE} the sha256 (lower-case hex) of the bytes written; for
 *     a {@link Kind#SYMLINK} the link target; empty for a {@link Kind#DIRECTORY}
 * @param mode the permission bits written (0 for a symlink)
 */
public record OwnedEntry(Path path, Kind kind, String fingerprint, int mode) {

  /** What the node created at the path. */
  public enum Kind {
    /** A regular file with the recorded content. */
    FILE,
    /** A symlink with the recorded target. */
    SYMLINK,
    /** A directory this node created because it did not exist. */
    DIRECTORY
  }

  public OwnedEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(fingerprint, "fingerprint");
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("owned path must be absolute: " + path);
    }
  }
}
