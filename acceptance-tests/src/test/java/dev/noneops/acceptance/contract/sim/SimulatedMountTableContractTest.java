package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.MountFixture;
import dev.noneops.testkit.contract.MountTableContract;
import java.io.IOException;
import java.nio.file.Path;

class SimulatedMountTableContractTest extends MountTableContract {
  private final SimulatedHost host = SimulatedHost.create();
  private final Path scratch = Path.of("/var/lib/contract");

  SimulatedMountTableContractTest() throws IOException {
    host.fs().seedDirectory(scratch, 0755);
  }

  @Override
  protected MountTable mountTable() {
    return host.ports().mounts();
  }

  @Override
  protected HostFiles files() {
    return host.ports().files();
  }

  @Override
  protected Path scratch() {
    return scratch;
  }

  @Override
  protected MountFixture fixture() {
    return new SimMountFixture(host);
  }
}
