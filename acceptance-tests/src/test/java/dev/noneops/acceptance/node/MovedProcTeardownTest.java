package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownOptions;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import dev.noneops.core.node.internal.teardown.TeardownLog.Keep;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.hostfs.RealHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A teardown on the real kernel through a host whose proc root alone was moved (as a test or a
 * chroot moves it): the seed's {@code CgroupRoot} is then none, so the machine's cgroups are
 * neither read nor killed nor removed, and the report says the pod cgroups were skipped.
 */
class MovedProcTeardownTest {
  private static final Path MACHINE_CGROUPS = Path.of("/sys/fs/cgroup");

  @TempDir
  Path tempDir;

  private KernelSandbox sandbox;

  @AfterEach
  void cleanUp() throws Exception {
    if (sandbox != null) {
      sandbox.unmountAll();
    }
  }

  @Test
  void theMachinesCgroupsAreLeftAloneAndThePodHierarchiesReportedAsSkipped() throws Exception {
    sandbox = KernelSandbox.open(tempDir);
    Path proc = Files.createDirectories(sandbox.top().resolve("proc"));
    RealHost real = RealHost.builder()
        .procRoot(proc)
        .mountInfo(Path.of("/proc/self/mountinfo"))
        .build();
    Path root = Files.createDirectories(sandbox.top().resolve("host"));
    RealNode node = new RealNode(root, real.files()).install();
    UnitDirectorySystemd systemd = new UnitDirectorySystemd(node.paths.systemdDir())
        .running("kubelet.service", "containerd.service");
    List<String> machineCgroupsBefore = listing(MACHINE_CGROUPS);
    TeardownOptions settings = TeardownOptions.defaults()
        .withUnmountDeadline(Duration.ofMillis(500))
        .withProcessDeadline(Duration.ofSeconds(10))
        .withCgroupDeadline(Duration.ofSeconds(10));

    TeardownLog report = new TeardownSteps(
            real.ports(systemd),
            node.layout,
            node.paths,
            settings,
            LoggerFactory.getLogger(MovedProcTeardownTest.class))
        .removeAll();

    assertThat(report.kept(KeepReason.NO_CGROUP_HIERARCHY))
        .extracting(Keep::subject)
        .containsExactly("/kubepods.slice", "/kubepods");
    assertThat(report.removed(TeardownAction.CGROUP_KILLED)).isEmpty();
    assertThat(report.removed(TeardownAction.CGROUP_REMOVED)).isEmpty();
    assertThat(listing(MACHINE_CGROUPS)).isEqualTo(machineCgroupsBefore);
    assertThat(report.complete()).as("%s", report).isTrue();
    assertThat(node.layout.root()).doesNotExist();
  }

  private static List<String> listing(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(Path::toString).sorted().toList();
    }
  }
}
