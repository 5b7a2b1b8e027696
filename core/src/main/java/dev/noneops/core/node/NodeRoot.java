package dev.noneops.core.node;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The installed root of a none node: its version directory. The slot is the version name,
 * which is what an upgrade flips {@code current} to.
 */
public record NodeRoot(Path directory, String slot) {
  public NodeRoot {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(slot, "slot");
  }
}
