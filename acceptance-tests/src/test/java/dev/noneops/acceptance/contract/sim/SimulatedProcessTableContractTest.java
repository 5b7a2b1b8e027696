package dev.noneops.acceptance.contract.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.process.ProcessTable;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.ProcessTableContract;
import dev.noneops.testkit.process.ProcessSpec;

class SimulatedProcessTableContractTest extends ProcessTableContract {
  private final SimulatedHost host = SimulatedHost.create();

  SimulatedProcessTableContractTest() {
    host.installExecutable(java.nio.file.Path.of("/usr/bin/sleep"), "sleep");
  }

  @Override
  protected ProcessTable processes() {
    return host.ports().processes();
  }

  @Override
  protected long startLongRunning(String marker) {
    return host.spawn(
            ProcessSpec.of("/usr/bin/sleep", "sleep", "infinity", marker).inCgroup("/user.slice"))
        .pid();
  }

  @Override
  protected String longRunningExe() {
    return "/usr/bin/sleep";
  }

  @Override
  protected void awaitGone(long pid) {
    assertThat(host.processes().process(pid))
        .as("process %d is gone at once in the simulation", pid)
        .isEmpty();
  }
}
