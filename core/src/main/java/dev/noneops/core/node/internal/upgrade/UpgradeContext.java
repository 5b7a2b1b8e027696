package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.core.node.internal.stack.ClusterReadyGate;
import dev.noneops.core.node.internal.state.RollbackHistory;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.state.UpgradeOwners;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.version.CurrentLink;
import dev.noneops.core.node.internal.version.TreeRemover;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.time.HostClock;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * What the upgrade operations share: the host's files and clock, the layout and the shared host
 * paths, the task runner that logs and reports each phase, the node's lock, who owns an upgrade, the mount-safe
 * remover used for stale staging and pruned versions, and the cluster's part of the readiness gate
 * (empty without cluster credentials).
 */
public record UpgradeContext(
    HostFiles files,
    HostClock clock,
    Layout layout,
    HostPaths hostPaths,
    TaskRunner tasks,
    NodeLock lock,
    UpgradeOwners owners,
    TreeRemover remover,
    Logger log,
    Optional<ClusterReadyGate> clusterGate) {
  public UpgradeContext {
    Objects.requireNonNull(hostPaths, "hostPaths");
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(tasks, "tasks");
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(owners, "owners");
    Objects.requireNonNull(remover, "remover");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(clusterGate, "clusterGate");
  }

  public UpgradeJournal journal() {
    return new UpgradeJournal(files, layout);
  }

  public SavedConfiguration confsnap() {
    return new SavedConfiguration(files, layout, hostPaths);
  }

  public RollbackHistory history() {
    return new RollbackHistory(files, layout);
  }

  public CurrentLink currentLink() {
    return new CurrentLink(files, layout);
  }
}
