package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The layout's own part of a teardown: the teardown note written into it before anything is
 * removed, and at the end of destroy its {@code current} link (never followed), its entries but
 * the note, and the parents bootstrap created to hold it (read from the layout's record of them,
 * removed deepest first and only while empty). Kept apart from {@link TeardownSteps} so that its
 * steps read as the teardown's order.
 */
final class LayoutRemoval {
  private final HostFiles files;
  private final Layout layout;

  LayoutRemoval(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /**
   * Writes the teardown note into the layout (durably, once) before anything that proves the node
   * is removed, so a teardown interrupted at any instant is still {@link TeardownSteps#present()}
   * and is run again; false (reported) when it cannot be written, and then nothing is removed.
   */
  boolean markStarted(ReportBuilder report) {
    Path marker = layout.teardownMarker();
    try {
      if (files.exists(layout.root()) && !files.exists(marker)) {
        files.writeDurably(
            marker,
            "a teardown of this node started; run 'noneops reset' again to finish it\n",
            0600);
      }
      return true;
    } catch (IOException e) {
      report.failed(marker, "write the teardown note (nothing removed without it)", e);
      return false;
    }
  }

  /** The parents of the layout its creation made, deepest first; empty when none (or unknown). */
  List<Path> createdParents(ReportBuilder report) {
    try {
      if (!files.exists(layout.createdParents())) {
        return List.of();
      }
      List<Path> parents = new ArrayList<>();
      for (String line : files.readString(layout.createdParents()).split("\n")) {
        Path p = line.isBlank() ? null : Path.of(line.strip()).normalize();
        if (p != null
            && p.isAbsolute()
            && layout.root().startsWith(p)
            && !p.equals(layout.root())
            && p.getNameCount() >= 1) {
          parents.add(p);
        }
      }
      parents.sort(Comparator.comparingInt(Path::getNameCount).reversed());
      return parents;
    } catch (IOException e) {
      report.failed(layout.createdParents(), "read", e);
      return List.of();
    }
  }

  /** Removes each of {@code parents} (deepest first) that is an empty directory; stops at the first that is not. */
  void removeEmptyParents(List<Path> parents, ReportBuilder report) {
    for (Path parent : parents) {
      try {
        Optional<FileMeta> meta = files.lstat(parent);
        if (meta.isEmpty() || !meta.get().isDirectory() || !files.list(parent).isEmpty()) {
          return;
        }
        files.removeDurably(parent);
        report.removed(
            TeardownAction.DIRECTORY_REMOVED,
            parent,
            "created by bootstrap to hold the layout, now empty");
      } catch (IOException e) {
        if (!HostIOException.hasErrno(e, Errno.ENOENT) && !TeardownSteps.isNotEmpty(e)) {
          report.failed(parent, "remove", e);
        }
        return;
      }
    }
  }

  /** Every entry of the layout except the teardown note, the lock and the parents' note, which go last, with the layout. */
  List<Path> layoutEntriesButTheNote(ReportBuilder report) {
    try {
      return files.list(layout.root()).stream()
          .filter(name -> !name.equals(Layout.TEARDOWN)
              && !name.equals(Layout.LOCK)
              && !name.equals(Layout.CREATED_PARENTS))
          .map(layout.root()::resolve)
          .toList();
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(layout.root(), "list", e);
      }
      return List.of();
    }
  }

  void removeCurrentLink(ReportBuilder report) {
    Path current = layout.current();
    try {
      Optional<FileMeta> meta = files.lstat(current);
      if (meta.isPresent() && meta.get().isSymlink()) {
        String target = files.readLink(current);
        files.removeDurably(current);
        report.removed(
            TeardownAction.SYMLINK_REMOVED,
            current,
            "the active-version link (to " + target + "), not followed");
      }
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(current, "remove", e);
      }
    }
  }
}
