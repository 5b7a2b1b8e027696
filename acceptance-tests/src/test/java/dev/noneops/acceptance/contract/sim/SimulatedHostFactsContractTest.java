package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.host.HostFacts;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HostFactsContract;
import java.nio.file.Path;
import java.util.List;

class SimulatedHostFactsContractTest extends HostFactsContract {
  private final SimulatedHost host = SimulatedHost.create();

  @Override
  protected HostFacts facts() {
    return host.ports().facts();
  }

  @Override
  protected void runAs(boolean effectiveRoot) {
    host.facts().privileged(effectiveRoot);
  }

  @Override
  protected void swapOn(List<String> areas) {
    host.facts().swaps(areas);
  }

  @Override
  protected Path existingDirectory() {
    return Path.of("/etc");
  }
}
