package dev.noneops.core.node;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.phases.ActivateVersionPhase;
import dev.noneops.core.node.internal.phases.CheckHostPhase;
import dev.noneops.core.node.internal.phases.InstallVersionPhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.phases.RecordHostEntriesPhase;
import dev.noneops.core.node.internal.phases.WriteUnitsPhase;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;

/**
 * {@link Node#prepare()} and {@link Node#provision()}: a host with a stack of its own refused on a
 * first install, the version installed and verified, then (provision) the host's CNI entries
 * recorded, the units written and the version activated.
 */
final class ProvisionUseCase {
  private final Node node;
  private final PhaseContext parts;
  private final TaskRunner tasks;

  ProvisionUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
    this.tasks = parts.tasks();
  }

  @SuppressWarnings("try")
  NodeRoot prepare() {
    return tasks.call("prepare", () -> {
      boolean firstInstall = !parts.ports().files().exists(parts.layout().root());
      if (firstInstall) {
        new CheckHostPhase(parts).run();
      }
      try (NodeLock.Hold hold = firstInstall
          ? parts.lock().acquireCreatingLayout("prepare")
          : parts.lock().acquire("prepare")) {
        return new InstallVersionPhase(parts).run(node.goalState());
      }
    });
  }

  @SuppressWarnings("try")
  void provision() {
    tasks.execute(Task.of("provision", () -> {
      new CheckHostPhase(parts).run();
      MachineGoalState goal = node.goalState();
      try (NodeLock.Hold hold = parts.lock().acquireCreatingLayout("provision")) {
        tasks.execute(Task.of("prepare", () -> new InstallVersionPhase(parts).run(goal)));
        String version = goal.rootFs().versionName();
        ActivateVersionPhase activate = new ActivateVersionPhase(parts);
        tasks.execute(Task.of("check-version", () -> activate.requireComplete(version)));
        recordHostEntries(parts);
        tasks.execute(Task.of("write-units", () -> new WriteUnitsPhase(parts).run(goal)));
        tasks.execute(Task.of("activate-version", () -> activate.run(version)));
      }
    }));
  }

  /** Records the host's CNI entries and links before the node's stack first runs. */
  static void recordHostEntries(PhaseContext parts) {
    parts
        .tasks()
        .execute(Task.of("record-cni-entries", () -> new RecordHostEntriesPhase(parts).run()));
  }
}
