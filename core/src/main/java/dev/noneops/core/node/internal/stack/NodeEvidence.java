package dev.noneops.core.node.internal.stack;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.internal.render.UnitFiles;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What proves that this node installed itself on the host: a unit or drop-in carrying the
 * marker, the ownership record or the applied configuration, the {@code current} link, the
 * upgrade journal or saved configuration, a version with its manifest (written last, so only a complete install has one), or the note of a
 * teardown that started and has not finished. A lock file, a
 * staging directory or an empty layout prove nothing: they are what a bootstrap leaves that was
 * stopped before it installed anything, and a teardown must not take a host's data directories
 * for this node's on such grounds.
 */
public final class NodeEvidence {
  private final HostFiles files;
  private final Layout layout;
  private final HostPaths paths;

  public NodeEvidence(HostFiles files, Layout layout, HostPaths paths) {
    this.files = files;
    this.layout = layout;
    this.paths = paths;
  }

  /** Each piece of evidence found, described; empty when the host shows no node of this kind. */
  public List<String> found() throws IOException {
    List<String> found = new ArrayList<>();
    if (new UnitFiles(files, paths).anyOwned()) {
      found.add("a unit or drop-in carrying the marker");
    }
    for (var path : List.of(
        paths.ownershipRecord(),
        paths.appliedConfig(),
        layout.journal(),
        layout.confsnap(),
        layout.teardownMarker())) {
      if (files.exists(path)) {
        found.add(path.toString());
      }
    }
    Optional<FileMeta> current = files.lstat(layout.current());
    if (current.isPresent() && current.get().isSymlink()) {
      found.add(layout.current() + " (the active-version link)");
    }
    for (String name : entries()) {
      if (VersionNames.isSafe(name)
          && !name.startsWith(".")
          && isDirectory(layout.root().resolve(name))
          && isRegularFile(layout.manifest(name))) {
        found.add("version " + name + " with its manifest");
      }
    }
    return found;
  }

  /** Whether {@code path} is a directory itself (a file of the layout, such as the journal, is no version). */
  private boolean isDirectory(Path path) throws IOException {
    return files.lstat(path).map(FileMeta::isDirectory).orElse(false);
  }

  private boolean isRegularFile(Path path) throws IOException {
    return files.lstat(path).map(FileMeta::isRegularFile).orElse(false);
  }

  public boolean any() throws IOException {
    return !found().isEmpty();
  }

  private List<String> entries() throws IOException {
    try {
      return files.list(layout.root());
    } catch (IOException e) {
      if (HostIOException.hasErrno(e, Errno.ENOENT) || HostIOException.hasErrno(e, Errno.ENOTDIR)) {
        return List.of();
      }
      throw e;
    }
  }
}
