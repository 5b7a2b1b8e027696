package dev.noneops.hostfs.mounts;

import java.io.IOException;
import java.nio.file.Path;

/** Tells which mount (by its mountinfo id) an existing path, not following a final symlink, lives on. */
@FunctionalInterface
public interface MountIdSource {
  long mountIdOf(Path path) throws IOException;
}
