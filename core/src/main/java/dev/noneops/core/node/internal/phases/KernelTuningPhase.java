package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.internal.render.HostTuningRenderer;
import java.io.IOException;

/**
 * The node's kernel modules (listed for boot at {@code ModulesLoadPath}, loaded now: overlay, then
 * br_netfilter) and its sysctl presets, which need br_netfilter loaded.
 */
public final class KernelTuningPhase {
  private final PhaseContext node;

  public KernelTuningPhase(PhaseContext node) {
    this.node = node;
  }

  public void loadModules() throws IOException {
    node.configWriter().writeModulesLoad();
    for (String module : HostTuningRenderer.MODULES) {
      node.ports().kernel().loadModule(module);
    }
  }

  public void writeSysctls() throws IOException {
    node.configWriter().writeSysctl();
  }

  public void applySysctls() throws IOException {
    node.ports().kernel().applySysctlPresets();
  }
}
