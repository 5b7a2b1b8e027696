package dev.noneops.core.node.internal.preflight;

import dev.noneops.ports.host.HostFacts;
import java.io.IOException;
import java.util.List;

/** kubelet, as the node configures it, refuses to start while swap is on. */
public final class SwapCheck implements PreflightCheck {
  private final HostFacts facts;

  public SwapCheck(HostFacts facts) {
    this.facts = facts;
  }

  @Override
  public String name() {
    return "swap";
  }

  @Override
  public CheckOutcome run() throws IOException {
    List<String> swaps = facts.swaps();
    return swaps.isEmpty()
        ? ok("off")
        : fail(
            "on: " + String.join(", ", swaps),
            "turn it off (swapoff -a) and remove it from /etc/fstab; kubelet does not start with"
                + " swap on");
  }
}
