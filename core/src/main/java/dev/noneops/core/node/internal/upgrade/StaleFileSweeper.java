package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.version.TreeRemover;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Removes what an interrupted durable write or download leaves behind: temp files and links
 * (names starting with {@link HostFiles#TEMP_PREFIX}) in the directories the node writes, the
 * layout's stale staging directory, and the tombstones of versions whose removal a crash
 * interrupted ({@link VersionPruner#REMOVING_PREFIX}), whose removal it finishes. Runs under the node lock, so no write of this node is in
 * progress; only entries carrying the temp prefix are touched.
 */
public final class StaleFileSweeper {
  private final HostFiles files;
  private final Layout layout;
  private final TreeRemover remover;

  public StaleFileSweeper(HostFiles files, Layout layout, TreeRemover remover) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.remover = Objects.requireNonNull(remover, "remover");
  }

  /**
   * Sweeps the layout root, the saved configuration's directory and every directory in
   * {@code directories}; returns what it removed.
   */
  public List<Path> sweep(Collection<Path> directories) throws IOException {
    TreeSet<Path> dirs = new TreeSet<>(directories);
    dirs.add(layout.root());
    dirs.add(layout.confsnap());
    List<Path> removed = new ArrayList<>();
    for (Path dir : dirs) {
      if (!isDirectory(dir)) {
        continue;
      }
      for (String name : files.list(dir)) {
        if (!name.startsWith(HostFiles.TEMP_PREFIX)) {
          continue;
        }
        Path stale = dir.resolve(name);
        Optional<FileMeta> meta = files.lstat(stale);
        if (meta.isPresent() && meta.get().isDirectory()) {
          requireRemoved(stale, remover.removeTree(stale));
        } else if (meta.isPresent()) {
          files.removeDurably(stale);
        }
        removed.add(stale);
      }
    }
    Path staging = layout.staging();
    if (files.exists(staging)) {
      requireRemoved(staging, remover.removeTree(staging));
      removed.add(staging);
    }
    for (String version : VersionPruner.versionsBeingRemoved(files, layout)) {
      Path tombstone = VersionPruner.tombstone(layout, version);
      requireRemoved(tombstone, remover.removeTree(tombstone));
      removed.add(tombstone);
    }
    return removed;
  }

  private boolean isDirectory(Path dir) throws IOException {
    Optional<FileMeta> meta = files.lstat(dir);
    return meta.isPresent() && meta.get().isDirectory();
  }

  private static void requireRemoved(Path path, List<String> leftBehind) {
    if (!leftBehind.isEmpty()) {
      throw new IllegalStateException(
          "could not remove stale " + path + ": " + String.join("; ", leftBehind));
    }
  }
}
