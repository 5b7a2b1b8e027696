package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.internal.files.OriginalFiles;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.OwnershipRecord;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Removes the configuration this node wrote at the shared host paths, and nothing else.
 *
 * <p>A shared file is this node's only when the ownership record lists it and it is still what
 * was recorded: a file with the recorded sha256, a symlink with the recorded target. A directory
 * the node created is removed only when empty. Anything changed since, or not recorded, is kept
 * and reported. A file or link that was at the path before the node came (saved in
 * {@link OriginalFiles} when the node took it over) is put back as it was instead of removed.
 * A path the node disowned because something else replaced its link there is left and reported.
 * Two cases need no record because the content proves the origin: a CNI plugin
 * link in {@code /opt/cni/bin} pointing into this node's layout (it would dangle once the layout
 * is gone), and units carrying the marker line (handled by {@link UnitTeardown} first).
 *
 * <p>Entries below the data directories are left to the destroy step, which removes those trees
 * whole. The record itself is removed last, so an interrupted run finds it again and finishes.
 */
public final class OwnedConfigRemover {
  private final HostFiles files;
  private final OwnershipStore store;
  private final OriginalFiles originals;
  private final HostPaths paths;
  private final Layout layout;
  private final List<Path> dataDirs;

  public OwnedConfigRemover(HostFiles files, HostPaths paths, Layout layout, List<Path> dataDirs) {
    this.files = files;
    this.paths = paths;
    this.layout = layout;
    this.dataDirs = List.copyOf(dataDirs);
    this.store = new OwnershipStore(files, paths.ownershipRecord());
    this.originals = SharedFileWriter.originalsBeside(files, store);
  }

  public void remove(ReportBuilder report) {
    OwnershipRecord record;
    try {
      record = store.load();
    } catch (IOException e) {
      report.failed(
          store.path(), "read the ownership record (no shared file removed without it)", e);
      return;
    }
    List<OwnedEntry> leaves = new ArrayList<>();
    List<OwnedEntry> directories = new ArrayList<>();
    for (OwnedEntry entry : record.entries()) {
      (entry.kind() == OwnedEntry.Kind.DIRECTORY ? directories : leaves).add(entry);
    }
    for (OwnedEntry entry : leaves) {
      removeLeaf(entry, report);
    }
    reportDisowned(report);
    removeCniLinksIntoLayout(report);
    directories.sort(Comparator.comparing(OwnedEntry::path).reversed());
    for (OwnedEntry dir : directories) {
      removeDirectory(dir.path(), report);
    }
    reportUnrecorded(record, report);
    try {
      originals.removeDirectoryIfEmpty();
    } catch (IOException e) {
      report.failed(originals.directory(), "remove", e);
    }
    try {
      store.delete();
      report.removed(TeardownAction.CONFIG_FILE_REMOVED, store.path(), "the ownership record");
    } catch (IOException e) {
      report.failed(store.path(), "remove the ownership record", e);
    }
  }

  private void removeLeaf(OwnedEntry entry, ReportBuilder report) {
    Path path = entry.path();
    if (!insideHostRoot(path)) {
      report.failed(
          path,
          "remove",
          new IOException("recorded path lies outside the host root " + paths.root()));
      return;
    }
    boolean data = underDataDir(path);
    try {
      Optional<FileMeta> meta = files.lstat(path);
      Optional<String> change =
          meta.isEmpty() ? Optional.empty() : changeSinceWritten(entry, meta.get());
      if (change.isPresent()) {
        if (!data) {
          report.kept(
              KeepReason.CHANGED_BY_OTHERS,
              path,
              change.get()
                  + (originals.has(path)
                      ? "; the file that was here before the node is saved at "
                          + originals.savedAt(path)
                      : ""));
        }
        return;
      }
      if (originals.restore(path)) {
        report.removed(
            TeardownAction.ORIGINAL_RESTORED,
            path,
            "what was here before the node, byte for byte with its mode and owner");
        return;
      }
      if (meta.isEmpty()) {
        return;
      }
      files.removeDurably(path);
      report.removed(
          TeardownAction.CONFIG_FILE_REMOVED,
          path,
          entry.kind() == OwnedEntry.Kind.SYMLINK
              ? "link to " + entry.fingerprint()
              : "unchanged since written");
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(path, "remove", e);
      }
    }
  }

  /** How the entry differs from what was recorded; empty when it is still this node's. */
  private Optional<String> changeSinceWritten(OwnedEntry entry, FileMeta meta) throws IOException {
    switch (entry.kind()) {
      case FILE -> {
        if (!meta.isRegularFile()) {
          return Optional.of("was written as a file, is now a " + meta.type());
        }
        String now = SharedFileWriter.sha256(files.read(entry.path()));
        return now.equals(entry.fingerprint())
            ? Optional.empty()
            : Optional.of("content changed since this node wrote it (sha256 " + now + ", written "
                + entry.fingerprint() + ")");
      }
      case SYMLINK -> {
        if (!meta.isSymlink()) {
          return Optional.of("was written as a symlink, is now a " + meta.type());
        }
        String target = files.readLink(entry.path());
        return target.equals(entry.fingerprint())
            ? Optional.empty()
            : Optional.of(
                "link now points at " + target + ", written to point at " + entry.fingerprint());
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private void removeCniLinksIntoLayout(ReportBuilder report) {
    Path dir = paths.cniBinDir();
    List<String> names;
    try {
      names = files.list(dir);
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)
          && !HostIOException.hasErrno(e, Errno.ENOTDIR)) {
        report.failed(dir, "list", e);
      }
      return;
    }
    for (String name : names) {
      Path link = dir.resolve(name);
      try {
        Optional<FileMeta> meta = files.lstat(link);
        if (meta.isEmpty() || !meta.get().isSymlink()) {
          continue;
        }
        String target = files.readLink(link);
        if (target.startsWith("/") && Path.of(target).normalize().startsWith(layout.root())) {
          files.removeDurably(link);
          report.removed(
              TeardownAction.CONFIG_FILE_REMOVED, link, "link into this node's layout: " + target);
        }
      } catch (IOException e) {
        if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
          report.failed(link, "remove", e);
        }
      }
    }
  }

  private void removeDirectory(Path dir, ReportBuilder report) {
    if (!insideHostRoot(dir) || underDataDir(dir)) {
      return;
    }
    try {
      Optional<FileMeta> meta = files.lstat(dir);
      if (meta.isEmpty()) {
        return;
      }
      if (!meta.get().isDirectory()) {
        report.kept(
            KeepReason.CHANGED_BY_OTHERS,
            dir,
            "was created as a directory, is now a " + meta.get().type());
        return;
      }
      List<String> entries = files.list(dir);
      if (!entries.isEmpty()) {
        report.kept(
            KeepReason.HOLDS_KEPT_ENTRIES,
            dir,
            "created by this node but holds entries it did not write: "
                + String.join(", ", entries));
        return;
      }
      files.removeDurably(dir);
      report.removed(TeardownAction.DIRECTORY_REMOVED, dir, "created by this node, now empty");
    } catch (IOException e) {
      if (TeardownSteps.isNotEmpty(e)) {
        report.kept(KeepReason.HOLDS_KEPT_ENTRIES, dir, "gained entries while being removed");
      } else if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(dir, "remove", e);
      }
    }
  }

  /** The paths the node disowned (something else replaced its link there): kept, and said so. */
  private void reportDisowned(ReportBuilder report) {
    try {
      for (OwnershipStore.Disowned d : store.disowned()) {
        if (files.lstat(d.path()).isPresent()) {
          report.kept(
              KeepReason.CHANGED_BY_OTHERS,
              d.path(),
              "no longer this node's: a " + d.found() + " replaced its link"
                  + (originals.has(d.path())
                      ? "; the file that was here before the node is saved at "
                          + originals.savedAt(d.path())
                      : ""));
        }
      }
    } catch (IOException e) {
      report.failed(store.disownedPath(), "read the list of disowned paths", e);
    }
  }

  /** The well-known shared files that exist but are not in the record: kept, and said so. */
  private void reportUnrecorded(OwnershipRecord record, ReportBuilder report) {
    for (Path path : List.of(
        paths.containerdConfig(),
        paths.sysctlFile(),
        paths.modulesLoadFile(),
        paths.kubeletDefaults())) {
      if (record.owns(path)) {
        continue;
      }
      try {
        if (files.exists(path)) {
          report.kept(KeepReason.NOT_RECORDED, path, "not in this node's ownership record");
        }
      } catch (IOException e) {
        report.failed(path, "lstat", e);
      }
    }
  }

  private boolean insideHostRoot(Path path) {
    Path normal = path.normalize();
    return normal.startsWith(paths.root()) && !normal.equals(paths.root());
  }

  private boolean underDataDir(Path path) {
    Path normal = path.normalize();
    for (Path dir : dataDirs) {
      if (normal.startsWith(dir)) {
        return true;
      }
    }
    return normal.startsWith(layout.root());
  }
}
