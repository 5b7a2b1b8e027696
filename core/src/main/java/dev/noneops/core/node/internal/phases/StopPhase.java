package dev.noneops.core.node.internal.phases;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import dev.noneops.core.node.internal.task.Task;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Stops the stack (kubelet, then containerd and LocalDNS, {@link HostPaths#STACK_STOP_ORDER}), each
 * unit only when its file is the node's (carries the marker): a distribution's kubelet or
 * containerd is never stopped. The units are stopped in one request, systemd ordering the stops by
 * the units' dependencies (kubelet first); every unit is attempted and the first failure is thrown
 * with the others suppressed.
 */
public final class StopPhase {
  private final PhaseContext node;

  public StopPhase(PhaseContext node) {
    this.node = node;
  }

  public void run() throws IOException {
    List<String> own = new ArrayList<>();
    for (String unit : HostPaths.STACK_STOP_ORDER) {
      if (isOwnUnit(unit)) {
        own.add(unit);
      }
    }
    if (!own.isEmpty()) {
      node.tasks().execute(Task.of("stop-units", () -> node.stack().stopAll(own)));
    }
  }

  private boolean isOwnUnit(String unit) throws IOException {
    return ForeignStackDetector.isNodesUnitFile(
        node.ports().files(), node.paths().unit(unit));
  }
}
