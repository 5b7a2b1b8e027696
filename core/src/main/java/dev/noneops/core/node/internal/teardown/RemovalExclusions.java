package dev.noneops.core.node.internal.teardown;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Entries below a directory that a removal must leave: {@code entries} are kept themselves (a
 * kept directory is entered, and what is not kept inside it goes), {@code trees} are kept with
 * everything below them. {@link #removable} lists the rest, for the mount-safe remover; the walk
 * never follows a symlink.
 */
public record RemovalExclusions(Set<Path> entries, Set<Path> trees) {
  public RemovalExclusions {
    entries = Set.copyOf(entries);
    trees = Set.copyOf(trees);
  }

  /** Keeps the recorded {@code entries}; no tree whole. */
  public static RemovalExclusions of(Set<Path> entries) {
    return new RemovalExclusions(entries, Set.of());
  }

  /** Whether {@code path} is kept (itself, or with its tree). */
  public boolean keeps(Path path) {
    return entries.contains(path) || trees.contains(path);
  }

  /** The entries below {@code dir} that are not kept, and how many below it are. */
  public Walk removable(HostFiles files, Path dir) throws IOException {
    Objects.requireNonNull(files, "files");
    List<Path> remove = new ArrayList<>();
    int left = collect(files, dir, remove);
    return new Walk(remove, left);
  }

  private int collect(HostFiles files, Path dir, List<Path> remove) throws IOException {
    int left = 0;
    for (String name : files.list(dir)) {
      Path child = dir.resolve(name);
      if (trees.contains(child)) {
        left++;
        continue;
      }
      if (!entries.contains(child)) {
        remove.add(child);
        continue;
      }
      left++;
      Optional<FileMeta> meta = files.lstat(child);
      if (meta.isPresent() && meta.get().isDirectory()) {
        left += collect(files, child, remove);
      }
    }
    return left;
  }

  /** What a walk found: the entries to remove, and the count of kept entries left in place. */
  public record Walk(List<Path> remove, int left) {
    public Walk {
      remove = List.copyOf(remove);
    }
  }
}
