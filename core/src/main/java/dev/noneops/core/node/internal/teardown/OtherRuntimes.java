package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.KeepReason;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.process.ProcessInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.stream.Collectors;

/**
 * What destroy leaves to the other runtimes that share the node's containerd or its binaries:
 * containerd's data directory while another namespace holds data in it, the state running shims
 * of other runtimes keep in containerd's run directory, and the versions of the layout they run
 * from. Each is kept and reported, blocking completion, so nothing of theirs is removed with the
 * node's. Kept apart from {@link TeardownSteps} so that its destroy reads as the teardown's order.
 */
final class OtherRuntimes {
  private final HostFiles files;
  private final Layout layout;
  private final HostPaths paths;

  OtherRuntimes(HostFiles files, Layout layout, HostPaths paths) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.paths = Objects.requireNonNull(paths, "paths");
  }

  /**
   * Whether containerd's data directory stays whole because its metadata ({@link
   * ContainerdNamespaces}) holds a namespace other than the node's {@code k8s.io}, such as
   * Docker's {@code moby} on the node's containerd: their containers' records and the snapshots
   * their root filesystems are share one database and one snapshot store with the node's, so
   * nothing of them can go without the rest. Kept too, as a failure, when the metadata cannot be
   * read. Either blocks completion: part of the node stays, and the operator decides.
   */
  boolean containerdDataOfOtherNamespaces(ReportBuilder report) {
    Path dataDir = paths.containerdStateDir();
    ContainerdNamespaces metadata = new ContainerdNamespaces(files, dataDir);
    SortedMap<String, String> namespaces;
    try {
      namespaces = metadata.list();
    } catch (IOException e) {
      report.failed(
          dataDir, "read which containerd namespaces hold data (kept whole until it can be)", e);
      return true;
    }
    namespaces.remove(ShimIdentity.KUBERNETES_NAMESPACE);
    if (namespaces.isEmpty()) {
      return false;
    }
    report.kept(
        KeepReason.OTHER_NAMESPACES,
        dataDir,
        "containerd's metadata (" + metadata.database() + ") holds namespaces other than the"
            + " node's " + ShimIdentity.KUBERNETES_NAMESPACE + ": "
            + namespaces.entrySet().stream()
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .collect(Collectors.joining(", "))
            + "; kept whole, the node's own data in it too; once they are not needed (or moved"
            + " away) remove it or run 'noneops reset' again");
    return true;
  }

  /**
   * What of the layout running shims of other runtimes run from ({@link
   * LayoutUsedByForeignShims}), each reported as kept, blocking completion: a version removed under
   * such a shim leaves its container running with no containerd able to manage it again.
   */
  LayoutUsedByForeignShims.Used layoutUsedBy(List<ProcessInfo> foreignShims, ReportBuilder report) {
    LayoutUsedByForeignShims.Used used;
    try {
      used = new LayoutUsedByForeignShims(files, layout.root()).of(foreignShims);
    } catch (IOException e) {
      if (HostIOException.hasErrno(e, Errno.ENOENT)) {
        return LayoutUsedByForeignShims.Used.nothing();
      }
      report.failed(layout.root(), "find what running shims of other runtimes run from", e);
      // no entry of the layout can be told safe to remove
      return LayoutUsedByForeignShims.Used.everything();
    }
    for (Map.Entry<Path, List<ProcessInfo>> version : used.versions().entrySet()) {
      report.kept(
          KeepReason.USED_BY_FOREIGN_SHIMS,
          version.getKey(),
          "running shims of other runtimes (another namespace or containerd) run their shim"
              + " binary from this version, and its runc: "
              + version.getValue().stream()
                  .map(ShimReaper::describe)
                  .collect(Collectors.joining(", "))
              + "; kept whole so a containerd started later can still manage their containers;"
              + " once they are gone run 'noneops reset' again");
    }
    for (Map.Entry<Path, Path> link : used.links().entrySet()) {
      report.kept(
          KeepReason.USED_BY_FOREIGN_SHIMS,
          link.getKey(),
          "the link to " + link.getValue() + ", which running shims of other runtimes run from");
    }
    return used;
  }

  /**
   * Removes containerd's run directory, except what running shims of other runtimes keep there
   * ({@link ForeignShimState}): those stay, and so do the directories holding them.
   */
  void removeRunDir(List<ProcessInfo> foreignShims, SafeTreeRemover remover, ReportBuilder report)
      throws InterruptedException {
    Path runDir = paths.containerdRunDir();
    if (foreignShims.isEmpty()) {
      remover.remove(List.of(runDir), true, report);
      return;
    }
    try {
      if (!files.lstat(runDir).map(FileMeta::isDirectory).orElse(false)) {
        remover.remove(List.of(runDir), true, report);
        return;
      }
      RemovalExclusions kept = new ForeignShimState(files, runDir).of(foreignShims);
      RemovalExclusions.Walk walk = kept.removable(files, runDir);
      if (!walk.remove().isEmpty()) {
        remover.remove(walk.remove(), true, report);
      }
      if (walk.left() == 0 && files.list(runDir).isEmpty()) {
        remover.remove(List.of(runDir), true, report);
      } else {
        report.kept(
            KeepReason.FOREIGN_SHIM,
            runDir,
            "holds the sockets, runc state and fifos of " + foreignShims.size()
                + " running shims of other runtimes, left as they were");
      }
    } catch (IOException e) {
      report.failed(runDir, "walk", e);
    }
  }
}
