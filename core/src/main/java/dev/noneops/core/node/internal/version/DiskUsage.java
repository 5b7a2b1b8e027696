package dev.noneops.core.node.internal.version;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a version's directory really holds on disk: its regular files (its {@link Layout#MANIFEST}
 * aside, which a manifest does not list either) and their bytes, found by walking the tree without
 * following a symlink. What {@code versions} reports for a version whose manifest is gone.
 *
 * @param files the regular files
 * @param bytes their sizes, summed
 */
public record DiskUsage(long files, long bytes) {

  /** The regular files below {@code dir} and their bytes; nothing when {@code dir} does not exist. */
  public static DiskUsage of(HostFiles files, Path dir) throws IOException {
    long[] total = new long[2];
    walk(files, dir, dir.resolve(Layout.MANIFEST), total);
    return new DiskUsage(total[0], total[1]);
  }

  private static void walk(HostFiles files, Path path, Path manifest, long[] total)
      throws IOException {
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isEmpty()) {
      return;
    }
    if (meta.get().isDirectory()) {
      for (String name : files.list(path)) {
        walk(files, path.resolve(name), manifest, total);
      }
    } else if (meta.get().isRegularFile() && !path.equals(manifest)) {
      total[0]++;
      total[1] += meta.get().size();
    }
  }
}
