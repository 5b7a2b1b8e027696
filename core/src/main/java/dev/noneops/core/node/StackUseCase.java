package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.phases.KernelTuningPhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.phases.RestartPhase;
import dev.noneops.core.node.internal.phases.StartPhase;
import dev.noneops.core.node.internal.phases.StopPhase;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@link Node#start}, {@link Node#restart()}, {@link Node#stop()}, {@link
 * Node#loadKernelModules()}, {@link Node#running()} and {@link Node#version()}: the stack's units
 * and the active version, each under the node lock where it changes something.
 */
final class StackUseCase {
  private final Node node;
  private final PhaseContext parts;

  StackUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
  }

  void loadKernelModules() {
    parts.locked("load-kernel-modules", () -> {
      KernelTuningPhase kernel = new KernelTuningPhase(parts);
      kernel.loadModules();
      kernel.writeSysctls();
      kernel.applySysctls();
      return null;
    });
  }

  void start(boolean wasRunning, ConfigureResult changes) {
    parts.locked("start", () -> {
      new StartPhase(parts).run(node.goalState(), wasRunning, changes.files());
      return null;
    });
  }

  void restart() {
    parts.locked("restart", () -> {
      new RestartPhase(parts).run(node.goalState());
      return null;
    });
  }

  /** Stops the stack; on a host without a node it takes no lock (and creates no layout). */
  @SuppressWarnings("try")
  void stop() {
    StopPhase phase = new StopPhase(parts);
    parts.tasks().execute(Task.of("stop", () -> {
      if (!parts.ports().files().exists(parts.layout().root())) {
        phase.run();
        return;
      }
      try (NodeLock.Hold hold = parts.lock().acquire("stop")) {
        phase.run();
      }
    }));
  }

  boolean running() {
    for (String unit : HostPaths.STACK_UNITS) {
      if (!parts.stack().isActive(unit)) {
        return false;
      }
    }
    return true;
  }

  Optional<String> version() {
    HostFiles files = parts.ports().files();
    Layout layout = parts.layout();
    try {
      Optional<FileMeta> meta = files.lstat(layout.current());
      if (meta.isEmpty() || !meta.get().isSymlink()) {
        return Optional.empty();
      }
      Path name = Path.of(files.readLink(layout.current())).getFileName();
      return name == null ? Optional.empty() : Optional.of(name.toString());
    } catch (IOException e) {
      throw new NodeException("read " + layout.current() + ": " + e.getMessage(), e);
    }
  }
}
