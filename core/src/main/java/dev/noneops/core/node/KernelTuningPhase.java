package dev.noneops.core.node;

import dev.noneops.core.node.internal.render.HostTuningRenderer;
import java.io.IOException;

/**
 * The node's kernel modules (listed for boot at {@code ModulesLoadPath}, loaded now: overlay, then
 * br_netfilter) and its sysctl presets, which need br_netfilter loaded.
 */
final class KernelTuningPhase {
  private final NodeParts node;

  KernelTuningPhase(NodeParts node) {
    this.node = node;
  }

  void loadModules() throws IOException {
    node.configWriter().writeModulesLoad();
    for (String module : HostTuningRenderer.MODULES) {
      node.ports().kernel().loadModule(module);
    }
  }

  void writeSysctls() throws IOException {
    node.configWriter().writeSysctl();
  }

  void applySysctls() throws IOException {
    node.ports().kernel().applySysctlPresets();
  }
}
