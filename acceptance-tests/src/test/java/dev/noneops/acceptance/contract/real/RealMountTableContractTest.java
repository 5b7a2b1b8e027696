package dev.noneops.acceptance.contract.real;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.testkit.contract.MountFixture;
import dev.noneops.testkit.contract.MountTableContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link MountTable} contract on the real kernel: tmpfs and bind mounts below a temporary
 * directory, in the test JVM's private mount namespace; skipped where that namespace is missing.
 */
class RealMountTableContractTest extends MountTableContract {

  private static final RealHost HOST = RealHost.create();

  @TempDir
  Path temp;

  private Path scratch;
  private PrivateMounts mounts;

  @BeforeEach
  void prepare() throws IOException {
    String whyNot = PrivateMounts.whyNot();
    assumeTrue(whyNot.isEmpty(), whyNot);
    scratch = Files.createDirectory(temp.resolve("scratch"));
    mounts = PrivateMounts.below(scratch).orElseThrow();
  }

  @AfterEach
  void detachMounts() throws Exception {
    if (mounts != null) {
      mounts.detachAll();
    }
  }

  @Override
  protected MountTable mountTable() {
    return HOST.mounts();
  }

  @Override
  protected HostFiles files() {
    return HOST.files();
  }

  @Override
  protected Path scratch() {
    return scratch;
  }

  @Override
  protected MountFixture fixture() {
    return mounts;
  }
}
