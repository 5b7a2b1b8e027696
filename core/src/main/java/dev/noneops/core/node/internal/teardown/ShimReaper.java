package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.task.WaitDeadline;
import dev.noneops.core.node.internal.teardown.ShimIdentity.Verdict;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Ends this node's container shims with SIGKILL and waits, bounded, until they are gone. Shims of
 * other runtimes are reported and left running. Killing a shim does not end its containers (they
 * live in the pod cgroups), which is why {@link PodCgroupKiller} runs after this.
 */
public final class ShimReaper {
  private final ProcessTable processes;
  private final HostClock clock;
  private final ShimIdentity identity;
  private final TeardownOptions settings;

  public ShimReaper(
      ProcessTable processes, HostClock clock, ShimIdentity identity, TeardownOptions settings) {
    this.processes = processes;
    this.clock = clock;
    this.identity = identity;
    this.settings = settings;
  }

  /**
   * Kills this node's shims and waits for them; reports the others.
   *
   * @return the shims of other runtimes, which were left running
   */
  public List<ProcessInfo> reap(ReportBuilder report) throws InterruptedException {
    List<ProcessInfo> all;
    try {
      all = processes.list(Set.of());
    } catch (IOException e) {
      report.failed("process table", "list processes", e);
      return List.of();
    }
    List<ProcessInfo> killed = new ArrayList<>();
    List<ProcessInfo> foreign = new ArrayList<>();
    ShimIdentity seen = identity.seeing(all);
    for (ProcessInfo process : all) {
      Verdict verdict = seen.classify(process);
      if (verdict != Verdict.OURS && verdict != Verdict.NOT_A_SHIM) {
        foreign.add(process);
      }
      switch (verdict) {
        case OURS -> {
          if (kill(process, report)) {
            killed.add(process);
          }
        }
        case FOREIGN ->
          report.kept(
              KeepReason.FOREIGN_SHIM,
              describe(process),
              "another runtime's shim (address or namespace is not this node's)");
        case SERVED_BY_FOREIGN_CONTAINERD ->
          report.kept(
              KeepReason.FOREIGN_SHIM,
              describe(process),
              "the containerd serving its socket (" + seen.foreignServer().orElse("")
                  + ") does not run from this node's layout");
        case OUTSIDE_NODE_CGROUPS ->
          report.kept(
              KeepReason.FOREIGN_SHIM,
              describe(process),
              "outside this node's cgroups (" + process.cgroup() + ")");
        case NOT_A_SHIM -> {}
      }
    }
    awaitGone(killed, report);
    return foreign;
  }

  private boolean kill(ProcessInfo process, ReportBuilder report) {
    try {
      if (processes.signal(process.pid(), UnitTeardown.SIGKILL)) {
        report.removed(TeardownAction.SHIM_KILLED, describe(process), "SIGKILL");
        return true;
      }
      return false;
    } catch (IOException e) {
      report.failed(describe(process), "SIGKILL", e);
      return false;
    }
  }

  private void awaitGone(List<ProcessInfo> killed, ReportBuilder report)
      throws InterruptedException {
    WaitDeadline deadline = WaitDeadline.after(clock, settings.processDeadline());
    List<ProcessInfo> alive = new ArrayList<>(killed);
    while (!alive.isEmpty()) {
      List<ProcessInfo> still = new ArrayList<>();
      for (ProcessInfo process : alive) {
        if (stillRunning(process)) {
          still.add(process);
        }
      }
      alive = still;
      if (alive.isEmpty()) {
        return;
      }
      if (deadline.expired()) {
        for (ProcessInfo process : alive) {
          report.kept(
              KeepReason.STILL_RUNNING,
              describe(process),
              "did not exit after SIGKILL within " + settings.processDeadline());
        }
        return;
      }
      deadline.pause(settings.pollInterval());
    }
  }

  /** Whether the same process (same pid and argv, so not a reused pid) still exists. */
  private boolean stillRunning(ProcessInfo process) {
    try {
      Optional<ProcessInfo> now = processes.get(process.pid());
      return now.isPresent() && now.get().argv().equals(process.argv());
    } catch (IOException e) {
      return true;
    }
  }

  public static String describe(ProcessInfo process) {
    return "pid " + process.pid() + " [" + String.join(" ", process.argv()) + "]";
  }
}
