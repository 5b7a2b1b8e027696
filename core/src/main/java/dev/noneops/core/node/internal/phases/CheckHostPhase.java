package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.core.node.internal.task.Task;

/**
 * The first phase on a host without a node: refuses a host with a kubelet or containerd of its
 * own (see {@link ForeignStackDetector}) before anything is written.
 */
public final class CheckHostPhase {
  private final PhaseContext node;

  public CheckHostPhase(PhaseContext node) {
    this.node = node;
  }

  public void run() {
    node.tasks()
        .execute(Task.of(
            "check-host",
            () -> new ForeignStackDetector(
                    node.ports().files(), node.ports().systemd(), node.paths(), node.layout())
                .requireNone()));
  }
}
