package dev.noneops.core.node.internal.phases;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.UnitJobException;
import dev.noneops.core.node.internal.stack.StackControl;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Brings the stack up. Not running: GPU setup, the units enabled, then, when no image archive is
 * staged, LocalDNS, containerd and kubelet in one request to systemd (kubelet is ordered after
 * containerd, so systemd starts it the moment containerd is ready; a kubelet systemd started
 * beside a containerd or LocalDNS whose start failed is stopped again before the failure is
 * thrown, unless it ran before the start); with archives staged, LocalDNS and containerd in one
 * request, the archives imported, then kubelet, which must find the images. Then a bounded wait
 * for kubelet. Running: restarts only what changed (LocalDNS and its wait, containerd, kubelet),
 * then waits for kubelet. {@link #apply} does both for a stack that runs in part. The caller holds
 * the lock.
 */
public final class StartPhase {
  private final PhaseContext node;

  public StartPhase(PhaseContext node) {
    this.node = node;
  }

  public void run(MachineGoalState goal, boolean wasRunning, ChangedFiles changes) {
    if (wasRunning) {
      restartChanged(goal, changes, Set.copyOf(HostPaths.STACK_UNITS));
      return;
    }
    startStopped(goal);
  }

  /**
   * Brings the stack to {@code changes}' configuration whatever part of it runs: each unit that
   * runs and whose configuration changed is restarted (LocalDNS, then waited for; containerd with
   * kubelet stopped before and started after it, when kubelet runs; kubelet), then the units that
   * do not run are started as {@link #run} starts a stopped stack (a start reads the new
   * configuration), then kubelet is waited for. A unit that runs is never stopped for good: kubelet
   * stopped for containerd's restart is started again even when that restart failed.
   *
   * @return the units restarted and the units started, each in the stack's order
   */
  public StackChanges apply(MachineGoalState goal, ChangedFiles changes) {
    Set<String> active = new LinkedHashSet<>();
    for (String unit : HostPaths.STACK_UNITS) {
      if (node.stack().isActive(unit)) {
        active.add(unit);
      }
    }
    List<String> stopped =
        HostPaths.STACK_UNITS.stream().filter(u -> !active.contains(u)).toList();
    if (stopped.isEmpty()) {
      return new StackChanges(restartChanged(goal, changes, active), List.of());
    }
    List<String> restarted = restartChangedWithoutWait(goal, changes, active);
    startStopped(goal);
    return new StackChanges(restarted, stopped);
  }

  /** The units {@link #apply} restarted and started, each in the stack's order. */
  public record StackChanges(List<String> restarted, List<String> started) {
    public StackChanges {
      restarted = List.copyOf(restarted);
      started = List.copyOf(started);
    }
  }

  private void startStopped(MachineGoalState goal) {
    TaskRunner tasks = node.tasks();
    StackControl stack = node.stack();
    tasks.execute(Task.of(
        "setup-gpu",
        () -> node.overrides().setupGpu().orElse(() -> setupGpu(goal)).run()));
    tasks.execute(
        Task.of("enable-units", () -> node.ports().systemd().enable(HostPaths.STACK_UNITS)));
    List<Path> archives = tasks.call("find-image-archives", this::stagedImageArchives);
    if (archives.isEmpty()) {
      tasks.execute(Task.of("start-units", this::startStack));
    } else {
      tasks.execute(Task.of(
          "start-localdns-and-containerd",
          () -> stack.startAll(List.of(HostPaths.LOCALDNS_UNIT, HostPaths.CONTAINERD_UNIT))));
      tasks.execute(Task.of("import-images", () -> importImages(archives)));
      tasks.execute(Task.of("start-kubelet", () -> stack.start(HostPaths.KUBELET_UNIT)));
    }
    tasks.execute(waitKubelet());
  }

  /**
   * Restarts what changed among the {@code active} units, then waits for kubelet when it was
   * restarted.
   *
   * @return the units restarted
   */
  private List<String> restartChanged(
      MachineGoalState goal, ChangedFiles changes, Set<String> active) {
    List<String> restarted = restartChangedWithoutWait(goal, changes, active);
    if (restarted.contains(HostPaths.KUBELET_UNIT)) {
      node.tasks().execute(waitKubelet());
    }
    return restarted;
  }

  /**
   * Restarts what changed among the {@code active} units. When containerd changed, a running
   * kubelet is stopped first and started once containerd is back (also when containerd's restart
   * failed: the call does not leave stopped a kubelet that ran), so it restarts exactly once and
   * never talks to a containerd going away (a unit that {@code Requires=} containerd, as one of an
   * operator's drop-ins may make it, would otherwise be restarted twice). A containerd that does
   * not run is left to be started; a running kubelet then keeps running and finds it.
   *
   * @return the units restarted, in the stack's order
   */
  private List<String> restartChangedWithoutWait(
      MachineGoalState goal, ChangedFiles changes, Set<String> active) {
    TaskRunner tasks = node.tasks();
    StackControl stack = node.stack();
    List<String> restarted = new ArrayList<>();
    if (changes.localDns() && active.contains(HostPaths.LOCALDNS_UNIT)) {
      restarted.add(HostPaths.LOCALDNS_UNIT);
      tasks.execute(Task.of("restart-localdns", () -> stack.restart(HostPaths.LOCALDNS_UNIT)));
      tasks.execute(Task.of(
          "wait-localdns",
          () -> stack.awaitLocalDns(HostPaths.LOCALDNS_UNIT, goal.nodeStart().localDns())));
    }
    boolean kubeletRuns = active.contains(HostPaths.KUBELET_UNIT);
    if (changes.containerd() && active.contains(HostPaths.CONTAINERD_UNIT)) {
      restarted.add(HostPaths.CONTAINERD_UNIT);
      if (kubeletRuns) {
        restarted.add(HostPaths.KUBELET_UNIT);
        tasks.execute(Task.of("stop-kubelet", () -> stack.stop(HostPaths.KUBELET_UNIT)));
        Task startKubelet = Task.of("start-kubelet", () -> stack.start(HostPaths.KUBELET_UNIT));
        try {
          tasks.execute(
              Task.of("restart-containerd", () -> stack.restart(HostPaths.CONTAINERD_UNIT)));
        } catch (RuntimeException failed) {
          try {
            tasks.execute(startKubelet);
          } catch (RuntimeException startFailed) {
            failed.addSuppressed(startFailed);
          }
          throw failed;
        }
        tasks.execute(startKubelet);
      } else {
        tasks.execute(
            Task.of("restart-containerd", () -> stack.restart(HostPaths.CONTAINERD_UNIT)));
      }
    } else if (changes.kubelet() && kubeletRuns) {
      restarted.add(HostPaths.KUBELET_UNIT);
      tasks.execute(Task.of("restart-kubelet", () -> stack.restart(HostPaths.KUBELET_UNIT)));
    }
    return List.copyOf(restarted);
  }

  /**
   * Starts LocalDNS, containerd and kubelet in one request. When one of them fails, a kubelet this
   * start brought up is not left running: it only wants containerd and LocalDNS, so systemd starts
   * it after either's start failed (a drop-in of the operator's that makes it require containerd
   * has systemd refuse it instead); such a kubelet is stopped again before the failure is thrown.
   * A kubelet that ran before the start is left running.
   */
  private void startStack() {
    StackControl stack = node.stack();
    boolean kubeletRan = stack.isActive(HostPaths.KUBELET_UNIT);
    try {
      stack.startAll(HostPaths.STACK_UNITS);
    } catch (UnitJobException failed) {
      if (!kubeletRan
          && !failed.unit().equals(HostPaths.KUBELET_UNIT)
          && stack.isActive(HostPaths.KUBELET_UNIT)) {
        try {
          stack.stop(HostPaths.KUBELET_UNIT);
        } catch (RuntimeException stopFailed) {
          failed.addSuppressed(stopFailed);
        }
      }
      throw failed;
    }
  }

  private Task waitKubelet() {
    return Task.of(
        "wait-kubelet",
        () -> node.overrides()
            .waitKubelet()
            .orElse(() -> node.stack().awaitKubelet(HostPaths.KUBELET_UNIT))
            .run());
  }

  private void setupGpu(MachineGoalState goal) throws IOException {
    if (!goal.nodeStart().gpu()) {
      return;
    }
    Path cdi = node.paths().host("/etc/cdi");
    node.ports().files().createDirectories(cdi, 0755);
    node.commands()
        .require(
            "generate the NVIDIA CDI specification",
            "nvidia-ctk",
            "cdi",
            "generate",
            "--output",
            cdi.resolve("nvidia.yaml").toString(),
            "--disable-hook",
            "all",
            "--enable-hook",
            "create-symlinks",
            "--enable-hook",
            "update-ldcache");
  }

  /** The staged image archives ({@code *.tar}) in the order listed; none without the directory. */
  private List<Path> stagedImageArchives() throws IOException {
    Path dir = node.overrides().effectiveImageArchiveDir();
    Optional<FileMeta> meta = node.ports().files().lstat(dir);
    if (meta.isEmpty() || !meta.get().isDirectory()) {
      return List.of();
    }
    List<Path> archives = new ArrayList<>();
    for (String name : node.ports().files().list(dir)) {
      if (name.endsWith(".tar")) {
        archives.add(dir.resolve(name));
      }
    }
    return List.copyOf(archives);
  }

  private void importImages(List<Path> archives) throws IOException {
    String ctr = node.layout().currentBin().resolve("ctr").toString();
    for (Path archive : archives) {
      node.commands()
          .require(
              "import image archive " + archive,
              node.overrides().timeouts().imageImport(),
              ctr,
              "-n",
              "k8s.io",
              "images",
              "import",
              archive.toString());
    }
  }
}
