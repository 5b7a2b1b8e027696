package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.internal.render.HostTuningRenderer;
import dev.noneops.ports.kernel.KernelTuning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sysctls kubelet's {@code --protect-kernel-defaults} expects, as they are now. Any not in
 * force is a warning: bootstrap applies them (its preset file, after br_netfilter is loaded),
 * unless it is told to leave the kernel alone.
 */
public final class SysctlsCheck implements PreflightCheck {
  /** The check's name. */
  public static final String NAME = "sysctls";

  private static final int LISTED = 4;

  private final KernelTuning kernel;
  private final boolean tuneKernel;

  public SysctlsCheck(KernelTuning kernel, boolean tuneKernel) {
    this.kernel = kernel;
    this.tuneKernel = tuneKernel;
  }

  @Override
  public String name() {
    return NAME;
  }

  private static String listed(List<String> entries) {
    return String.join(", ", entries.subList(0, Math.min(LISTED, entries.size())))
        + (entries.size() > LISTED ? " and " + (entries.size() - LISTED) + " more" : "");
  }

  @Override
  public CheckOutcome run() throws IOException {
    List<String> differ = new ArrayList<>();
    List<String> wantedOfDiffer = new ArrayList<>();
    for (Map.Entry<String, String> wanted : HostTuningRenderer.SYSCTLS.entrySet()) {
      Optional<String> now = kernel.sysctl(wanted.getKey());
      if (now.isEmpty() || !now.get().equals(wanted.getValue())) {
        differ.add(wanted.getKey() + "=" + now.orElse("(absent)"));
        wantedOfDiffer.add(wanted.getKey() + "=" + wanted.getValue());
      }
    }
    int total = HostTuningRenderer.SYSCTLS.size();
    if (differ.isEmpty()) {
      return ok("all " + total + " in force");
    }
    String listed = listed(differ);
    String detail = differ.size() + " of " + total + " not in force: " + listed;
    return tuneKernel
        ? warn(detail, "none: bootstrap applies them (loading br_netfilter first)")
        : warn(
            detail,
            "set them on the host (" + String.join(", ", wantedOfDiffer)
                + "), or let bootstrap tune the kernel; kubelet refuses other values");
  }
}
