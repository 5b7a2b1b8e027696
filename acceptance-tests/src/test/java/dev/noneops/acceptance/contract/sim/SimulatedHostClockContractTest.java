package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.time.HostClock;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HostClockContract;

class SimulatedHostClockContractTest extends HostClockContract {
  private final SimulatedHost host = SimulatedHost.create();

  @Override
  protected HostClock clock() {
    return host.ports().clock();
  }
}
