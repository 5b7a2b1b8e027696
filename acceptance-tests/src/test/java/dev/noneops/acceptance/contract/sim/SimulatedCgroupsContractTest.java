package dev.noneops.acceptance.contract.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.process.Cgroups;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.CgroupsContract;
import dev.noneops.testkit.process.ProcessSpec;

class SimulatedCgroupsContractTest extends CgroupsContract {
  private static final String OWN = "/noneops-contract.slice";
  private final SimulatedHost host = SimulatedHost.create();

  SimulatedCgroupsContractTest() {
    host.installExecutable(java.nio.file.Path.of("/usr/bin/sleep"), "sleep");
  }

  @Override
  protected Cgroups cgroups() {
    return host.ports().cgroups();
  }

  @Override
  protected String createCgroup(String relative) {
    String path = OWN + "/" + relative;
    host.processes().createCgroup(path);
    return path;
  }

  @Override
  protected String missingCgroup() {
    return OWN + "/missing";
  }

  @Override
  protected long startProcessIn(String cgroup) {
    return host.spawn(ProcessSpec.of("/usr/bin/sleep", "sleep", "infinity").inCgroup(cgroup))
        .pid();
  }

  @Override
  protected void awaitGone(long pid) {
    assertThat(host.processes().process(pid)).isEmpty();
  }

  @Override
  protected void stopProcess(long pid) {
    host.processes().signal(pid, 9);
  }
}
