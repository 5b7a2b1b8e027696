package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HostFilesContract;
import dev.noneops.testkit.contract.MountFixture;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

class SimulatedHostFilesContractTest extends HostFilesContract {
  private final SimulatedHost host = SimulatedHost.create();
  private final Path scratch = Path.of("/var/lib/contract");

  SimulatedHostFilesContractTest() throws IOException {
    host.fs().seedDirectory(scratch, 0755);
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
  protected Optional<MountFixture> mounts() {
    return Optional.of(new SimMountFixture(host));
  }

  @Override
  protected Optional<PowerLoss> powerLoss() {
    return Optional.of(host::crash);
  }

  @Override
  protected boolean canChown() {
    return true;
  }
}
