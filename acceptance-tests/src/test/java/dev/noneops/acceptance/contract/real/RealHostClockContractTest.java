package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.time.SystemHostClock;
import dev.noneops.ports.time.HostClock;
import dev.noneops.testkit.contract.HostClockContract;

/** The {@link HostClock} contract on the system clocks. */
class RealHostClockContractTest extends HostClockContract {

  private final HostClock clock = new SystemHostClock();

  @Override
  protected HostClock clock() {
    return clock;
  }
}
