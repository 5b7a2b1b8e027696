package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.internal.render.HostTuningRenderer;
import dev.noneops.ports.kernel.KernelTuning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's kernel modules (overlay for containerd's snapshots, br_netfilter for pod traffic)
 * are loaded, built in or loadable. A module that is missing fails a bootstrap that loads them,
 * and is a warning for one told to leave the kernel alone.
 */
public final class KernelModulesCheck implements PreflightCheck {
  private final KernelTuning kernel;
  private final boolean tuneKernel;

  public KernelModulesCheck(KernelTuning kernel, boolean tuneKernel) {
    this.kernel = kernel;
    this.tuneKernel = tuneKernel;
  }

  @Override
  public String name() {
    return "kernel-modules";
  }

  @Override
  public CheckOutcome run() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String module : HostTuningRenderer.MODULES) {
      if (!kernel.moduleAvailable(module)) {
        missing.add(module);
      }
    }
    String all = String.join(", ", HostTuningRenderer.MODULES);
    if (missing.isEmpty()) {
      return ok(all + " loaded, built in or loadable");
    }
    String detail = "not in this kernel: " + String.join(", ", missing);
    String remedy =
        "install the kernel's modules (e.g. linux-modules-extra-$(uname -r)) or a kernel" + " with "
            + String.join(", ", missing);
    return tuneKernel
        ? fail(detail, remedy)
        : warn(detail + " (the kernel is left as it is)", remedy + "; pod networking may not work");
  }
}
