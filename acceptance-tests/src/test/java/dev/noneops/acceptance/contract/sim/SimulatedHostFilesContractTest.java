package dev.noneops.acceptance.contract.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HostFilesContract;
import dev.noneops.testkit.contract.MountFixture;
import dev.noneops.testkit.process.SimProcesses;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedHostFilesContractTest extends HostFilesContract {
  private final SimulatedHost host = SimulatedHost.create();
  private final Path scratch = Path.of("/var/lib/contract");

  SimulatedHostFilesContractTest() throws IOException {
    host.fs().seedDirectory(scratch, 0755);
  }

  @Override
  protected long thisProcess() {
    return SimProcesses.AGENT.pid();
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

  /** What the real kernel promises and only the simulated host can cut power to show. */
  @Test
  void aDurableChmodOrChownSurvivesAPowerLoss() throws IOException {
    HostFiles files = files();
    files.writeDurably(scratch.resolve("mode"), "x", 0644);
    files.writeDurably(scratch.resolve("owner"), "x", 0644);
    files.createDirectories(scratch.resolve("dir"), 0755);

    files.chmodDurably(scratch.resolve("mode"), 0755);
    files.chownDurably(scratch.resolve("owner"), 1234, 5678);
    files.chmodDurably(scratch.resolve("dir"), 0700);
    host.crash();

    assertThat(files.lstat(scratch.resolve("mode")).orElseThrow().mode()).isEqualTo(0755);
    FileMeta owner = files.lstat(scratch.resolve("owner")).orElseThrow();
    assertThat(List.of(owner.uid(), owner.gid())).containsExactly(1234, 5678);
    assertThat(files.lstat(scratch.resolve("dir")).orElseThrow().mode()).isEqualTo(0700);
  }

  @Override
  protected boolean canChown() {
    return true;
  }
}
