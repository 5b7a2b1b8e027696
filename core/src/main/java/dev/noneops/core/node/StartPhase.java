package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node.ConfigureResult;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Brings the stack up. Not running: GPU setup, the units enabled, then, when no image archive is
 * staged, LocalDNS, containerd and kubelet in one request to systemd (kubelet is ordered after
 * containerd, so systemd starts it the moment containerd is ready; a kubelet systemd started
 * beside a containerd or LocalDNS whose start failed is stopped again before the failure is
 * thrown); with archives staged, LocalDNS and containerd in one request, the
 * archives imported, then kubelet, which must find the images. Then a bounded wait for kubelet.
 * Running: restarts only what changed (LocalDNS and its wait, containerd, kubelet), then waits for
 * kubelet. The caller holds the lock.
 */
final class StartPhase {
  private final NodeParts node;

  StartPhase(NodeParts node) {
    this.node = node;
  }

  void run(MachineGoalState goal, boolean wasRunning, ConfigureResult changes) {
    if (wasRunning) {
      restartChanged(goal, changes);
      return;
    }
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
   * Restarts what changed. When containerd changed, kubelet is stopped first and started once
   * containerd is back, so it restarts exactly once and never talks to a containerd going away
   * (a unit that {@code Requires=} containerd, as one of an operator's drop-ins may make it,
   * would otherwise be restarted twice).
   */
  private void restartChanged(MachineGoalState goal, ConfigureResult changes) {
    StackControl stack = node.stack();
    List<Task> steps = new ArrayList<>();
    if (changes.localDnsChanged()) {
      steps.add(Task.of("restart-localdns", () -> stack.restart(HostPaths.LOCALDNS_UNIT)));
      steps.add(Task.of(
          "wait-localdns",
          () -> stack.awaitLocalDns(HostPaths.LOCALDNS_UNIT, goal.nodeStart().localDns())));
    }
    if (changes.containerdChanged()) {
      steps.add(Task.of("stop-kubelet", () -> stack.stop(HostPaths.KUBELET_UNIT)));
      steps.add(Task.of("restart-containerd", () -> stack.restart(HostPaths.CONTAINERD_UNIT)));
      steps.add(Task.of("start-kubelet", () -> stack.start(HostPaths.KUBELET_UNIT)));
      steps.add(waitKubelet());
    } else if (changes.kubeletChanged()) {
      steps.add(Task.of("restart-kubelet", () -> stack.restart(HostPaths.KUBELET_UNIT)));
      steps.add(waitKubelet());
    }
    steps.forEach(node.tasks()::execute);
  }

  /**
   * Starts LocalDNS, containerd and kubelet in one request. When one of them fails, kubelet is not
   * left running: it only wants containerd and LocalDNS, so systemd starts it after either's start
   * failed (a drop-in of the operator's that makes it require containerd has systemd refuse it
   * instead); such a kubelet is stopped again before the failure is thrown.
   */
  private void startStack() {
    StackControl stack = node.stack();
    try {
      stack.startAll(HostPaths.STACK_UNITS);
    } catch (UnitJobException failed) {
      if (!failed.unit().equals(HostPaths.KUBELET_UNIT) && stack.isActive(HostPaths.KUBELET_UNIT)) {
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
