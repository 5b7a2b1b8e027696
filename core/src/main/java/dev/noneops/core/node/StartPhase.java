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
 * Brings the stack up. Not running: GPU setup, the units enabled, LocalDNS and containerd (side by
 * side, in one request to systemd: neither is ordered after the other), the staged image archives,
 * kubelet, then a bounded wait for kubelet. Running: restarts only what changed
 * (LocalDNS and its wait, containerd, then kubelet after it), then waits for kubelet. The caller
 * holds the lock.
 */
final class StartPhase {
  private final NodeParts node;

  StartPhase(NodeParts node) {
    this.node = node;
  }

  void run(MachineGoalState goal, boolean wasRunning, ConfigureResult changes) {
    StackControl stack = node.stack();
    List<Task> steps = new ArrayList<>();
    if (!wasRunning) {
      steps.add(Task.of(
          "setup-gpu",
          () -> node.overrides().setupGpu().orElse(() -> setupGpu(goal)).run()));
      steps.add(
          Task.of("enable-units", () -> node.ports().systemd().enable(HostPaths.STACK_UNITS)));
      steps.add(Task.of(
          "start-localdns-and-containerd",
          () -> stack.startAll(List.of(HostPaths.LOCALDNS_UNIT, HostPaths.CONTAINERD_UNIT))));
      steps.add(Task.of("import-images", this::importImages));
      steps.add(Task.of("start-kubelet", () -> stack.start(HostPaths.KUBELET_UNIT)));
      steps.add(waitKubelet());
    } else {
      if (changes.localDnsChanged()) {
        steps.add(Task.of("restart-localdns", () -> stack.restart(HostPaths.LOCALDNS_UNIT)));
        steps.add(Task.of(
            "wait-localdns",
            () -> stack.awaitLocalDns(HostPaths.LOCALDNS_UNIT, goal.nodeStart().localDns())));
      }
      if (changes.containerdChanged()) {
        steps.add(Task.of("restart-containerd", () -> stack.restart(HostPaths.CONTAINERD_UNIT)));
      }
      if (changes.containerdChanged() || changes.kubeletChanged()) {
        steps.add(Task.of("restart-kubelet", () -> stack.restart(HostPaths.KUBELET_UNIT)));
        steps.add(waitKubelet());
      }
    }
    steps.forEach(node.tasks()::execute);
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

  private void importImages() throws IOException {
    Path dir = node.overrides().effectiveImageArchiveDir();
    Optional<FileMeta> meta = node.ports().files().lstat(dir);
    if (meta.isEmpty() || !meta.get().isDirectory()) {
      return;
    }
    String ctr = node.layout().currentBin().resolve("ctr").toString();
    for (String name : node.ports().files().list(dir)) {
      if (name.endsWith(".tar")) {
        Path archive = dir.resolve(name);
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
}
