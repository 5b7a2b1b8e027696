package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.internal.files.PreexistingCniEntries;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
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
 * Removes what the node's pods left in the CNI configuration ({@code /etc/cni/net.d}, written by
 * the CNI agent for this node) and state ({@code /var/lib/cni}: host-local's reservations, cached
 * results), as a repave does, and nothing that was there before the node came ({@link
 * PreexistingCniEntries}): a recorded entry stays byte-identical, a recorded directory stays and only
 * what was added inside it goes. Without a record nothing is removed there (the node cannot tell
 * the host's entries from its own) and the directories are reported kept. Deletion goes through
 * the mount-safe {@link SafeTreeRemover}.
 */
public final class CniStateCleaner {
  private final HostFiles files;
  private final HostPaths paths;
  private final PreexistingCniEntries before;
  private final SafeTreeRemover remover;

  public CniStateCleaner(
      HostFiles files, HostPaths paths, PreexistingCniEntries before, SafeTreeRemover remover) {
    this.files = Objects.requireNonNull(files, "files");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.before = Objects.requireNonNull(before, "before");
    this.remover = Objects.requireNonNull(remover, "remover");
  }

  /**
   * Cleans both directories.
   *
   * @param removeDirectories true for a teardown: a directory the node's pods created goes too
   *     ({@code /etc/cni} as well once empty); false for an upgrade, which keeps both directories
   *     for the next start
   */
  public void clean(boolean removeDirectories, ReportBuilder report) throws InterruptedException {
    List<Path> areas = List.of(paths.cniConfDir(), paths.host(PreexistingCniEntries.CNI_STATE_DIR));
    Set<Path> kept;
    try {
      Optional<Set<Path>> recorded = before.load();
      if (recorded.isEmpty()) {
        for (Path area : areas) {
          if (files.exists(area)) {
            report.kept(
                KeepReason.NOT_RECORDED,
                area,
                "no record of what was here before the node (" + before.path()
                    + "); left as it is");
          }
        }
        return;
      }
      kept = recorded.get();
    } catch (IOException | CorruptStateException e) {
      report.failed(
          before.path(), "read (nothing below the CNI directories removed without it)", e);
      return;
    }
    List<Path> remove = new ArrayList<>();
    for (Path area : areas) {
      try {
        Optional<FileMeta> meta = files.lstat(area);
        if (meta.isEmpty()) {
          continue;
        }
        if (removeDirectories && !kept.contains(area)) {
          remove.add(area);
          continue;
        }
        if (!meta.get().isDirectory()) {
          continue;
        }
        RemovalExclusions.Walk walk = RemovalExclusions.of(kept).removable(files, area);
        remove.addAll(walk.remove());
        int left = walk.left();
        if (left > 0) {
          report.kept(
              KeepReason.FROM_BEFORE_THE_NODE,
              area,
              left + " entries that were there before the node came, left as they were");
        }
      } catch (IOException e) {
        report.failed(area, "walk", e);
      }
    }
    if (!remove.isEmpty()) {
      remover.remove(remove, true, report);
    }
    if (removeDirectories) {
      removeParentIfCreated(kept, report);
    }
  }

  /** {@code /etc/cni}, when the node's pods created it and nothing is left in it. */
  private void removeParentIfCreated(Set<Path> kept, ReportBuilder report) {
    Path parent = paths.host(PreexistingCniEntries.CONF_PARENT);
    if (kept.contains(parent)) {
      return;
    }
    try {
      Optional<FileMeta> meta = files.lstat(parent);
      if (meta.isPresent() && meta.get().isDirectory() && files.list(parent).isEmpty()) {
        files.removeDurably(parent);
        report.removed(
            TeardownAction.DIRECTORY_REMOVED, parent, "not there before the node came, now empty");
      }
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT) && !TeardownSteps.isNotEmpty(e)) {
        report.failed(parent, "remove", e);
      }
    }
  }
}
