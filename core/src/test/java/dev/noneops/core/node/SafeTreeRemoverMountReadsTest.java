package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.internal.teardown.SafeTreeRemover;
import dev.noneops.ports.HostPorts;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The mount-safe remover reads the mount table once when nothing is mounted below the roots
 * (nothing to unmount, so nothing to check again), as the CNI clean-up of every upgrade finds it,
 * and twice when it unmounted something there.
 */
class SafeTreeRemoverMountReadsTest {
  private static final Path ROOT = Path.of("/var/lib/cni");

  private final SimulatedHost host = SimulatedHost.create();
  private final SimFileSystem fs = host.fs();

  @Test
  void withNothingMountedBelowTheRootsTheMountTableIsReadOnce() throws Exception {
    fs.seedFile(ROOT.resolve("results/net-c1-eth0"), "{}", 0600);

    TeardownResult report = remove();

    assertThat(mountTableReads()).isEqualTo(1);
    assertThat(report.kept()).isEmpty();
    assertThat(fs.lstat(ROOT)).isEmpty();
  }

  @Test
  void afterUnmountingBelowTheRootsTheMountTableIsReadAgain() throws Exception {
    Path point = ROOT.resolve("tmp");
    fs.seedDirectory(point, 0755);
    fs.mount(point, MountKind.TMPFS, "tmpfs", "tmpfs", false);

    TeardownResult report = remove();

    assertThat(mountTableReads()).isEqualTo(2);
    assertThat(report.kept()).isEmpty();
    assertThat(fs.lstat(ROOT)).isEmpty();
  }

  private TeardownResult remove() throws InterruptedException {
    HostPorts ports = host.ports();
    return TeardownResult.of(new SafeTreeRemover(
            ports.files(),
            ports.mounts(),
            ports.clock(),
            TeardownOptions.defaults(),
            LoggerFactory.getLogger(getClass()))
        .remove(List.of(ROOT)));
  }

  private long mountTableReads() {
    return host.journal().calls().stream().filter(c -> c.is("mounts.mounts")).count();
  }
}
