package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import java.io.IOException;

/**
 * Stops the stack in {@link HostPaths#STACK_STOP_ORDER} (kubelet, containerd, LocalDNS), each unit
 * only when its file is the node's (carries the marker): a distribution's kubelet or containerd is
 * never stopped. Every unit is attempted; the first failure is thrown with the others suppressed.
 */
final class StopPhase {
  private final NodeParts node;

  StopPhase(NodeParts node) {
    this.node = node;
  }

  void run() throws IOException {
    RuntimeException first = null;
    for (String unit : HostPaths.STACK_STOP_ORDER) {
      if (!isOwnUnit(unit)) {
        continue;
      }
      try {
        node.tasks()
            .execute(Task.of(
                "stop-" + unit.replace(".service", ""), () -> node.stack().stop(unit)));
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private boolean isOwnUnit(String unit) throws IOException {
    return ForeignStackDetector.isNodesUnitFile(
        node.ports().files(), node.paths().unit(unit));
  }
}
