package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.task.WaitDeadline;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Removes directory trees that may have mounts below them, without ever harming what is mounted
 * there: the one primitive every teardown of a data directory goes through.
 *
 * <ol>
 *   <li>Read the mount table and unmount everything strictly below the roots, deepest first (and
 *       for mounts stacked on one point, the topmost first), with {@code UMOUNT_NOFOLLOW}. A busy
 *       mount is retried until its own deadline; only when {@link TeardownOptions#lazyUnmount()}
 *       is set is it then detached. A mount <em>at</em> a root is not unmounted: this node did not
 *       create it (a dedicated disk for {@code /var/lib/kubelet}).
 *   <li>Read the mount table again (when there was anything below the roots to unmount). Every
 *       mount still below a root is reported, and its subtree is left untouched: nothing is
 *       deleted at or below it.
 *   <li>Delete with a walker that never follows a symlink (a symlink is removed as a link) and
 *       never enters another mount: an entry whose {@link FileMeta#mountId()} differs from its
 *       root's, or that the mount table names as a mount point, is kept. Mount ids, not device
 *       numbers, so a bind mount of the same filesystem is recognised too.
 * </ol>
 *
 * Only paths below the given roots are ever removed. A removal interrupted anywhere can be run
 * again: each step starts from what is on the host.
 */
public final class SafeTreeRemover {
  /** Symlinks reported one by one per root; beyond this only their count is reported. */
  public static final int SYMLINKS_LISTED = 100;

  private final HostFiles files;
  private final MountTable mounts;
  private final HostClock clock;
  private final TeardownOptions settings;
  private final Logger log;

  public SafeTreeRemover(
      HostFiles files, MountTable mounts, HostClock clock, TeardownOptions settings, Logger log) {
    this.files = Objects.requireNonNull(files, "files");
    this.mounts = Objects.requireNonNull(mounts, "mounts");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Removes every root (and everything below it that is safe to remove); reports what it did. */
  public TeardownLog remove(List<Path> roots) throws InterruptedException {
    ReportBuilder report = new ReportBuilder(log);
    remove(roots, true, report);
    return report.build();
  }

  /**
   * Removes everything below each root but keeps the root directories themselves.
   */
  public TeardownLog removeContents(List<Path> roots) throws InterruptedException {
    ReportBuilder report = new ReportBuilder(log);
    remove(roots, false, report);
    return report.build();
  }

  public void remove(List<Path> roots, boolean removeRoots, ReportBuilder report)
      throws InterruptedException {
    List<Path> checked = new ArrayList<>();
    for (Path root : roots) {
      checked.add(requireRemovableRoot(root));
    }
    Map<Path, String> unmountErrors = new HashMap<>();
    Optional<List<MountEntry>> before = readMounts(checked, report);
    if (before.isEmpty()) {
      return;
    }
    boolean unmounting = unmountBelow(checked, before.get(), unmountErrors, report);
    // with nothing below the roots nothing was unmounted: the first read stands (a mount made
    // since is still never entered, the walk compares mount ids)
    Optional<List<MountEntry>> after = unmounting ? readMounts(checked, report) : before;
    if (after.isEmpty()) {
      return;
    }
    Set<Path> stillMounted = new LinkedHashSet<>();
    Set<Path> mountedAtRoot = new HashSet<>();
    for (MountEntry entry : after.get()) {
      Path point = entry.mountPoint().normalize();
      for (Path root : checked) {
        if (point.equals(root)) {
          mountedAtRoot.add(root);
        } else if (point.startsWith(root)) {
          stillMounted.add(point);
        }
      }
    }
    for (Path point : stillMounted) {
      String why = unmountErrors.getOrDefault(point, "still in the mount table");
      report.kept(KeepReason.STILL_MOUNTED, point, why + "; nothing at or below it was touched");
    }
    for (Path root : checked) {
      removeTree(root, removeRoots, mountedAtRoot.contains(root), stillMounted, report);
    }
  }

  private Optional<List<MountEntry>> readMounts(List<Path> roots, ReportBuilder report) {
    try {
      return Optional.of(mounts.mounts());
    } catch (IOException e) {
      for (Path root : roots) {
        report.failed(root, "read the mount table (nothing removed without it)", e);
      }
      return Optional.empty();
    }
  }

  /** Unmounts what {@code table} has strictly below the roots; false when it has nothing there. */
  private boolean unmountBelow(
      List<Path> roots, List<MountEntry> table, Map<Path, String> errors, ReportBuilder report)
      throws InterruptedException {
    record Indexed(int index, MountEntry entry, Path point) {}
    List<Indexed> below = new ArrayList<>();
    for (int i = 0; i < table.size(); i++) {
      Path point = table.get(i).mountPoint().normalize();
      for (Path root : roots) {
        if (point.startsWith(root) && !point.equals(root)) {
          below.add(new Indexed(i, table.get(i), point));
          break;
        }
      }
    }
    below.sort(Comparator.comparingInt((Indexed m) -> m.point().getNameCount())
        .reversed()
        .thenComparing(Comparator.comparingInt(Indexed::index).reversed()));
    Set<Path> givenUp = new HashSet<>();
    for (Indexed m : below) {
      if (givenUp.contains(m.point())) {
        continue;
      }
      if (!unmount(m.entry(), m.point(), errors, report)) {
        givenUp.add(m.point());
      }
    }
    return !below.isEmpty();
  }

  /** Unmounts the topmost mount at {@code point}, bounded; false when it stayed mounted. */
  private boolean unmount(
      MountEntry entry, Path point, Map<Path, String> errors, ReportBuilder report)
      throws InterruptedException {
    String what = entry.fsType() + " from " + entry.source();
    WaitDeadline deadline = WaitDeadline.after(clock, settings.unmountDeadline());
    while (true) {
      try {
        mounts.unmount(point, EnumSet.of(UnmountFlag.NOFOLLOW));
        report.removed(TeardownAction.UNMOUNTED, point, what);
        return true;
      } catch (HostIOException e) {
        if (e.errno() == Errno.EINVAL || e.errno() == Errno.ENOENT) {
          return true;
        }
        if (e.errno() == Errno.EBUSY && !deadline.expired()) {
          deadline.pause(settings.pollInterval());
          continue;
        }
        if (e.errno() == Errno.EBUSY && settings.lazyUnmount()) {
          return detach(entry, point, what, errors, report);
        }
        errors.put(
            point,
            "unmount " + what + " failed: " + e.errno() + " after " + settings.unmountDeadline());
        return false;
      } catch (IOException e) {
        errors.put(point, "unmount " + what + " failed: " + ReportBuilder.describe(e));
        return false;
      }
    }
  }

  private boolean detach(
      MountEntry entry, Path point, String what, Map<Path, String> errors, ReportBuilder report) {
    try {
      mounts.unmount(point, EnumSet.of(UnmountFlag.DETACH, UnmountFlag.NOFOLLOW));
      report.removed(
          TeardownAction.UNMOUNTED, point, what + ", busy, lazily detached (MNT_DETACH) as asked");
      return true;
    } catch (IOException e) {
      errors.put(point, "lazy unmount of " + what + " failed: " + ReportBuilder.describe(e));
      return false;
    }
  }

  /** Counts of one root's removal. */
  private static final class Tally {
    long files;
    long directories;
    long symlinks;
    final List<String> listedSymlinks = new ArrayList<>();
  }

  private void removeTree(
      Path root,
      boolean removeRoot,
      boolean rootIsMountPoint,
      Set<Path> stillMounted,
      ReportBuilder report) {
    Optional<FileMeta> meta;
    try {
      meta = files.lstat(root);
    } catch (IOException e) {
      report.failed(root, "lstat", e);
      return;
    }
    if (meta.isEmpty()) {
      return;
    }
    if (meta.get().isSymlink()) {
      report.kept(
          KeepReason.SYMLINK_NOT_FOLLOWED,
          root,
          "is a symlink to " + linkTarget(root) + "; neither followed nor removed");
      return;
    }
    if (!meta.get().isDirectory()) {
      deleteRootEntry(root, report, "a " + meta.get().type().name().toLowerCase(Locale.ROOT));
      return;
    }
    rootIsMountPoint = rootIsMountPoint || differentMountThanParent(root, meta.get());
    Tally tally = new Tally();
    boolean clean = clear(root, meta.get().mountId(), stillMounted, tally, report);
    String counts = tally.files + " files, " + tally.directories + " directories, " + tally.symlinks
        + " symlinks";
    for (String link : tally.listedSymlinks) {
      report.removed(
          TeardownAction.SYMLINK_REMOVED, link, "removed as a link; its target was not followed");
    }
    if (tally.symlinks > tally.listedSymlinks.size()) {
      report.removed(
          TeardownAction.SYMLINK_REMOVED,
          root,
          (tally.symlinks - tally.listedSymlinks.size())
              + " more symlinks inside, removed as links");
    }
    if (rootIsMountPoint) {
      report.kept(
          KeepReason.FOREIGN_MOUNT,
          root,
          "a mount this node did not create; left mounted, removed on it: " + counts);
      return;
    }
    if (!clean) {
      report.kept(
          KeepReason.HOLDS_KEPT_ENTRIES,
          root,
          "kept because entries below it were kept; removed: " + counts);
      return;
    }
    if (!removeRoot) {
      report.removed(
          TeardownAction.TREE_REMOVED, root + "/*", counts + "; the directory itself kept");
      return;
    }
    try {
      files.removeDurably(root);
      report.removed(TeardownAction.TREE_REMOVED, root, counts);
    } catch (IOException e) {
      if (HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.removed(TeardownAction.TREE_REMOVED, root, counts);
      } else {
        report.failed(root, "remove", e);
      }
    }
  }

  /**
   * Deletes what is below {@code dir} on mount {@code mountId}; true when nothing was kept, so
   * {@code dir} itself may go.
   */
  private boolean clear(
      Path dir, long mountId, Set<Path> stillMounted, Tally tally, ReportBuilder report) {
    List<String> names;
    try {
      names = files.list(dir);
    } catch (IOException e) {
      if (HostIOException.hasErrno(e, Errno.ENOENT)) {
        return true;
      }
      report.failed(dir, "list", e);
      return false;
    }
    boolean clean = true;
    for (String name : names) {
      Path child = dir.resolve(name).normalize();
      if (!Objects.equals(child.getParent(), dir)) {
        report.failed(
            child,
            "walk",
            new IllegalStateException("directory entry '" + name + "' leaves " + dir));
        clean = false;
        continue;
      }
      Optional<FileMeta> meta;
      try {
        meta = files.lstat(child);
      } catch (IOException e) {
        report.failed(child, "lstat", e);
        clean = false;
        continue;
      }
      if (meta.isEmpty()) {
        continue;
      }
      if (stillMounted.contains(child)) {
        clean = false;
        continue;
      }
      if (meta.get().mountId() != mountId) {
        report.kept(
            KeepReason.STILL_MOUNTED,
            child,
            "on another mount (mount id " + meta.get().mountId() + "); not entered");
        clean = false;
        continue;
      }
      if (meta.get().isDirectory()) {
        if (!clear(child, mountId, stillMounted, tally, report)) {
          clean = false;
          continue;
        }
        if (delete(child, report)) {
          tally.directories++;
        } else {
          clean = false;
        }
        continue;
      }
      String target = meta.get().isSymlink() ? linkTarget(child) : null;
      if (delete(child, report)) {
        if (target == null) {
          tally.files++;
        } else {
          tally.symlinks++;
          if (tally.listedSymlinks.size() < SYMLINKS_LISTED) {
            tally.listedSymlinks.add(child + " -> " + target);
          }
        }
      } else {
        clean = false;
      }
    }
    return clean;
  }

  private boolean delete(Path path, ReportBuilder report) {
    try {
      files.delete(path);
      return true;
    } catch (IOException e) {
      if (HostIOException.hasErrno(e, Errno.ENOENT)) {
        return true;
      }
      report.failed(path, "delete", e);
      return false;
    }
  }

  private void deleteRootEntry(Path root, ReportBuilder report, String kind) {
    try {
      files.removeDurably(root);
      report.removed(TeardownAction.TREE_REMOVED, root, kind);
    } catch (IOException e) {
      if (!HostIOException.hasErrno(e, Errno.ENOENT)) {
        report.failed(root, "remove", e);
      }
    }
  }

  private boolean differentMountThanParent(Path root, FileMeta meta) {
    try {
      Optional<FileMeta> parent = files.lstat(root.getParent());
      return parent.isPresent() && parent.get().mountId() != meta.mountId();
    } catch (IOException e) {
      return false;
    }
  }

  private String linkTarget(Path link) {
    try {
      return files.readLink(link);
    } catch (IOException e) {
      return "(unreadable: " + ReportBuilder.describe(e) + ")";
    }
  }

  /**
   * A root must be absolute and at least two levels deep, so that no caller can hand the walker
   * {@code /} or a top-level directory by mistake.
   */
  public static Path requireRemovableRoot(Path root) {
    Objects.requireNonNull(root, "root");
    if (!root.isAbsolute()) {
      throw new IllegalArgumentException("a tree to remove must be an absolute path: " + root);
    }
    Path normal = root.normalize();
    if (normal.getNameCount() < 2) {
      throw new IllegalArgumentException("refusing to remove a top-level directory: " + root);
    }
    return normal;
  }
}
