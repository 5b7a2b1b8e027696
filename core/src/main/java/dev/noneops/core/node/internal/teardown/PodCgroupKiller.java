package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.task.WaitDeadline;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.process.Cgroups;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Ends the pods' processes through their cgroups, then removes the pod cgroups deepest first.
 *
 * <p>Which cgroups: the pod hierarchy kubelet created, {@code /kubepods.slice} with the systemd
 * driver or {@code /kubepods} with cgroupfs. It is only touched when no kubelet unit of somebody
 * else owns it: after this node's units are removed, systemd must not know a kubelet unit loaded
 * from another file; if it does, the hierarchy is reported and left alone. containerd.service's
 * cgroup is deliberately not emptied wholesale: after the stop it holds only shims, and while
 * this node's are ended by {@link ShimReaper}, a Docker using the same containerd keeps its shims
 * (namespace {@code moby}) there too, which must survive.
 *
 * <p>How: {@code cgroup.kill} (Linux 5.14+) kills a whole subtree atomically, including processes
 * forked meanwhile; without it every pid found in the subtree gets SIGKILL. Either is repeated
 * until the subtree is empty or the deadline passes. Without a cgroup v2 hierarchy nothing is
 * touched and each pod hierarchy is reported as skipped.
 */
public final class PodCgroupKiller {

  /** The pod hierarchies of kubelet's systemd and cgroupfs drivers. */
  public static final List<String> POD_HIERARCHIES = List.of("/kubepods.slice", "/kubepods");

  private final Cgroups cgroups;
  private final ProcessTable processes;
  private final Systemd systemd;
  private final HostClock clock;
  private final HostPaths paths;
  private final TeardownOptions settings;

  public PodCgroupKiller(
      Cgroups cgroups,
      ProcessTable processes,
      Systemd systemd,
      HostClock clock,
      HostPaths paths,
      TeardownOptions settings) {
    this.cgroups = cgroups;
    this.processes = processes;
    this.systemd = systemd;
    this.clock = clock;
    this.paths = paths;
    this.settings = settings;
  }

  public void killAndRemove(ReportBuilder report) throws InterruptedException {
    end(report, true);
  }

  /** Ends the pods' processes and keeps the cgroups, for a stack that starts again (an upgrade). */
  public void kill(ReportBuilder report) throws InterruptedException {
    end(report, false);
  }

  private void end(ReportBuilder report, boolean remove) throws InterruptedException {
    if (!cgroups.available()) {
      for (String hierarchy : POD_HIERARCHIES) {
        report.kept(
            KeepReason.NO_CGROUP_HIERARCHY,
            hierarchy,
            "no cgroup v2 hierarchy on this host: not killed or removed");
      }
      return;
    }
    for (String hierarchy : POD_HIERARCHIES) {
      try {
        if (!cgroups.exists(hierarchy)) {
          continue;
        }
        Optional<String> foreignOwner = foreignOwner(HostPaths.KUBELET_UNIT);
        if (foreignOwner.isPresent()) {
          report.kept(
              KeepReason.FOREIGN_UNIT,
              hierarchy,
              "belongs to " + HostPaths.KUBELET_UNIT + " loaded from " + foreignOwner.get());
          continue;
        }
        if (empty(hierarchy, report) && remove) {
          removeDeepestFirst(hierarchy, report);
        }
      } catch (IOException e) {
        report.failed(hierarchy, "inspect cgroup", e);
      }
    }
  }

  /** The unit file of {@code unit} when systemd loaded it from a file that is not this node's. */
  private Optional<String> foreignOwner(String unit) {
    try {
      UnitStatus status = systemd.status(unit);
      if (status.load() == LoadState.NOT_FOUND || status.fragmentPath().isEmpty()) {
        return Optional.empty();
      }
      if (status.fragmentPath().equals(paths.unit(unit).toString())) {
        return Optional.empty();
      }
      return Optional.of(status.fragmentPath());
    } catch (SystemdException e) {
      return Optional.empty();
    }
  }

  /** Kills the subtree until it has no processes; false when some survived the deadline. */
  private boolean empty(String root, ReportBuilder report)
      throws IOException, InterruptedException {
    WaitDeadline deadline = WaitDeadline.after(clock, settings.cgroupDeadline());
    boolean useKill = cgroups.supportsKill();
    int killedFirst = -1;
    while (true) {
      List<Long> pids = subtreePids(root);
      if (killedFirst < 0) {
        killedFirst = pids.size();
      }
      if (pids.isEmpty()) {
        if (killedFirst > 0) {
          report.removed(
              TeardownAction.CGROUP_KILLED,
              root,
              killedFirst + " processes, " + (useKill ? "cgroup.kill" : "SIGKILL to each"));
        }
        return true;
      }
      if (deadline.expired()) {
        report.kept(
            KeepReason.STILL_RUNNING,
            root,
            pids.size() + " processes survive " + settings.cgroupDeadline() + ": " + pids);
        return false;
      }
      if (useKill) {
        cgroups.kill(root);
      } else {
        for (long pid : pids) {
          processes.signal(pid, UnitTeardown.SIGKILL);
        }
      }
      deadline.pause(settings.pollInterval());
    }
  }

  private void removeDeepestFirst(String root, ReportBuilder report)
      throws IOException, InterruptedException {
    List<String> order = new ArrayList<>();
    postOrder(root, order);
    WaitDeadline deadline = WaitDeadline.after(clock, settings.cgroupDeadline());
    for (String cgroup : order) {
      while (true) {
        try {
          cgroups.remove(cgroup);
          report.removed(TeardownAction.CGROUP_REMOVED, cgroup);
          break;
        } catch (HostIOException e) {
          if (e.errno() == Errno.ENOENT) {
            break;
          }
          if (e.errno() != Errno.EBUSY || deadline.expired()) {
            report.kept(
                e.errno() == Errno.EBUSY ? KeepReason.STILL_RUNNING : KeepReason.FAILED,
                cgroup,
                "rmdir: " + e.getMessage());
            return;
          }
          deadline.pause(settings.pollInterval());
        }
      }
    }
  }

  private void postOrder(String cgroup, List<String> out) throws IOException {
    for (String child : children(cgroup)) {
      postOrder(child, out);
    }
    out.add(cgroup);
  }

  private List<Long> subtreePids(String cgroup) throws IOException {
    List<Long> pids = new ArrayList<>();
    try {
      pids.addAll(cgroups.pids(cgroup));
    } catch (HostIOException e) {
      if (e.errno() != Errno.ENOENT) {
        throw e;
      }
      return pids;
    }
    for (String child : children(cgroup)) {
      pids.addAll(subtreePids(child));
    }
    return pids;
  }

  private List<String> children(String cgroup) throws IOException {
    try {
      return cgroups.children(cgroup);
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        return List.of();
      }
      throw e;
    }
  }
}
