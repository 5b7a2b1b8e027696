package dev.noneops.core.node.internal.phases;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.stack.StackControl;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;

/**
 * Soft reboot of the stack: LocalDNS (then wait until it answers), containerd, kubelet (then wait
 * until it is active). kubelet is stopped before containerd restarts and started after it, once,
 * so it never talks to a containerd going away (and a kubelet an operator's drop-in made {@code
 * Requires=} containerd is not restarted twice). The host is not rebooted. The caller holds the
 * lock.
 */
public final class RestartPhase {
  private final PhaseContext node;

  public RestartPhase(PhaseContext node) {
    this.node = node;
  }

  public void run(MachineGoalState goal) {
    TaskRunner tasks = node.tasks();
    StackControl stack = node.stack();
    tasks.execute(Task.of("restart-localdns", () -> stack.restart(HostPaths.LOCALDNS_UNIT)));
    tasks.execute(Task.of(
        "wait-localdns",
        () -> stack.awaitLocalDns(HostPaths.LOCALDNS_UNIT, goal.nodeStart().localDns())));
    tasks.execute(Task.of("stop-kubelet", () -> stack.stop(HostPaths.KUBELET_UNIT)));
    tasks.execute(Task.of("restart-containerd", () -> stack.restart(HostPaths.CONTAINERD_UNIT)));
    tasks.execute(Task.of("start-kubelet", () -> stack.start(HostPaths.KUBELET_UNIT)));
    tasks.execute(Task.of(
        "wait-kubelet-active",
        () -> stack.awaitActive(
            HostPaths.KUBELET_UNIT, node.overrides().timeouts().kubeletReady())));
  }
}
