package dev.noneops.core.node.internal.version;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Walks and removes trees inside the agent's layout (staging and version directories), never
 * following a symlink: a link is removed or listed as a link, not entered.
 */
public final class LayoutTrees {
  private LayoutTrees() {}

  /** Removes {@code root} and everything below it, then fsyncs its parent; absent is fine. */
  public static void remove(HostFiles files, Path root) throws IOException {
    Optional<FileMeta> meta = files.lstat(root);
    if (meta.isEmpty()) {
      return;
    }
    removeBelow(files, root, meta.get());
    files.syncDirectory(root.getParent());
  }

  private static void removeBelow(HostFiles files, Path path, FileMeta meta) throws IOException {
    if (meta.isDirectory()) {
      for (String name : files.list(path)) {
        Path child = path.resolve(name);
        Optional<FileMeta> childMeta = files.lstat(child);
        if (childMeta.isPresent()) {
          removeBelow(files, child, childMeta.get());
        }
      }
    }
    files.delete(path);
  }

  /** Every non-directory entry below {@code root}, as paths relative to it, sorted. */
  public static List<Relative> entries(HostFiles files, Path root) throws IOException {
    List<Relative> out = new ArrayList<>();
    collect(files, root, "", out);
    out.sort(Comparator.comparing(Relative::path));
    return out;
  }

  /** A tree entry: its path relative to the walked root and its metadata. */
  public record Relative(String path, FileMeta meta) {}

  private static void collect(HostFiles files, Path dir, String prefix, List<Relative> out)
      throws IOException {
    for (String name : files.list(dir)) {
      Path child = dir.resolve(name);
      Optional<FileMeta> meta = files.lstat(child);
      if (meta.isEmpty()) {
        continue;
      }
      String rel = prefix.isEmpty() ? name : prefix + "/" + name;
      if (meta.get().isDirectory()) {
        collect(files, child, rel, out);
      } else {
        out.add(new Relative(rel, meta.get()));
      }
    }
  }
}
