package dev.noneops.acceptance.contract.sim;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.MountFixture;
import dev.noneops.testkit.fs.SimFileSystem;
import java.nio.file.Path;

/** Mounts on a {@link SimulatedHost}, for the contract suites. */
final class SimMountFixture implements MountFixture {
  private final SimulatedHost host;

  SimMountFixture(SimulatedHost host) {
    this.host = host;
  }

  @Override
  public void mountFilesystem(Path at) throws Exception {
    host.fs().mount(at, SimFileSystem.MountKind.DISK, "tmpfs", "tmpfs", false);
  }

  @Override
  public void bindMount(Path source, Path at) throws Exception {
    host.fs().bindMount(source, at);
  }

  @Override
  public AutoCloseable keepBusy(Path mountPoint) throws Exception {
    host.fs().setBusy(mountPoint, true);
    return () -> {
      if (host.fs().lstat(mountPoint).isPresent()) {
        try {
          host.fs().setBusy(mountPoint, false);
        } catch (dev.noneops.ports.HostIOException e) {
          // already unmounted (lazily): nothing is busy any more
        }
      }
    };
  }
}
