package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.contract.HostFilesContract;
import dev.noneops.testkit.contract.MountFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link HostFiles} contract on the real kernel, in a temporary directory. */
class RealHostFilesContractTest extends HostFilesContract {

  private static final HostFiles FILES = RealHost.create().files();

  @TempDir
  Path temp;

  private Path scratch;
  private Optional<PrivateMounts> mounts = Optional.empty();

  @BeforeEach
  void prepare() throws IOException {
    scratch = Files.createDirectory(temp.resolve("scratch"));
    mounts = PrivateMounts.below(scratch);
  }

  @AfterEach
  void detachMounts() throws Exception {
    if (mounts.isPresent()) {
      mounts.get().detachAll();
    }
  }

  @Override
  protected long thisProcess() {
    return ProcessHandle.current().pid();
  }

  @Override
  protected HostFiles files() {
    return FILES;
  }

  @Override
  protected Path scratch() {
    return scratch;
  }

  @Override
  protected Optional<MountFixture> mounts() {
    return mounts.map(m -> m);
  }

  @Override
  protected boolean canChown() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    } catch (IOException e) {
      return false;
    }
  }
}
