package dev.noneops.core.node.internal.phases;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.render.LocalDnsNetwork;
import dev.noneops.core.node.internal.render.NodeConfigWriter;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;

/**
 * Writes a goal's configuration at its host paths (containerd, kubelet, LocalDNS, the host's own
 * files), sets up the LocalDNS network unless told not to (an upgrade sets the target's up only
 * once the old stack is stopped and its interface gone) and reloads systemd if a unit changed.
 * The caller holds the lock.
 */
public final class ConfigurePhase {
  private final PhaseContext node;

  public ConfigurePhase(PhaseContext node) {
    this.node = node;
  }

  /** {@link #run(MachineGoalState, boolean)} that sets up the LocalDNS network. */
  public ChangedFiles run(MachineGoalState goal) {
    return run(goal, true);
  }

  /**
   * @param setUpNetwork whether to set up the goal's LocalDNS interface too
   * @return which families of files differed from what was on disk
   */
  public ChangedFiles run(MachineGoalState goal, boolean setUpNetwork) {
    TaskRunner tasks = node.tasks();
    NodeConfigWriter writer = node.configWriter();
    boolean containerd = tasks.call("configure-containerd", () -> writer.writeContainerd(goal));
    boolean kubelet = tasks.call("configure-kubelet", () -> writer.writeKubelet(goal));
    boolean localDns = tasks.call("configure-localdns", () -> writer.writeLocalDns(goal));
    tasks.execute(Task.of("configure-host", () -> writer.writeHost(goal)));
    if (setUpNetwork) {
      tasks.execute(Task.of(
          "setup-localdns-network",
          () -> new LocalDnsNetwork(node.ports().network())
              .ensure(goal.nodeStart().localDns())));
    }
    if (writer.unitsChanged()) {
      tasks.execute(Task.of("reload-systemd", () -> node.ports().systemd().daemonReload()));
    }
    return new ChangedFiles(containerd, kubelet, localDns);
  }
}
