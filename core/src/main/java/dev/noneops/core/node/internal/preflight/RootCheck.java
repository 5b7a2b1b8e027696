package dev.noneops.core.node.internal.preflight;

import dev.noneops.ports.host.HostFacts;
import java.io.IOException;

/** Bootstrap, apply and upgrade change the host: they run as root. */
public final class RootCheck implements PreflightCheck {
  private final HostFacts facts;

  public RootCheck(HostFacts facts) {
    this.facts = facts;
  }

  @Override
  public String name() {
    return "root";
  }

  @Override
  public CheckOutcome run() throws IOException {
    return facts.privileged()
        ? ok("running as root")
        : fail("not running as root", "run noneops as root (sudo noneops ...)");
  }
}
