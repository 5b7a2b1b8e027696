package dev.noneops.core.node;

import dev.noneops.core.node.Node.ConfigureResult;

/**
 * Writes a goal's configuration at its host paths (containerd, kubelet, LocalDNS, the host's own
 * files), sets up the LocalDNS network and reloads systemd if a unit changed. The caller holds
 * the lock.
 */
final class ConfigurePhase {
  private final NodeParts node;

  ConfigurePhase(NodeParts node) {
    this.node = node;
  }

  /** @return which families of files differed from what was on disk */
  ConfigureResult run(MachineGoalState goal) {
    TaskRunner tasks = node.tasks();
    NodeConfigWriter writer = node.configWriter();
    boolean containerd = tasks.call("configure-containerd", () -> writer.writeContainerd(goal));
    boolean kubelet = tasks.call("configure-kubelet", () -> writer.writeKubelet(goal));
    boolean localDns = tasks.call("configure-localdns", () -> writer.writeLocalDns(goal));
    tasks.execute(Task.of("configure-host", () -> writer.writeHost(goal)));
    tasks.execute(Task.of(
        "setup-localdns-network",
        () ->
            new LocalDnsNetwork(node.ports().network()).ensure(goal.nodeStart().localDns())));
    if (writer.unitsChanged()) {
      tasks.execute(Task.of("reload-systemd", () -> node.ports().systemd().daemonReload()));
    }
    return new ConfigureResult(containerd, kubelet, localDns);
  }
}
