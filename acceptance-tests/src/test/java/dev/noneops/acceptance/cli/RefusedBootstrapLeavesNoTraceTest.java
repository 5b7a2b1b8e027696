package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A host that runs a kubelet and containerd of its own: bootstrap refuses it before writing
 * anything, and afterwards no command finds a node there, so {@code reset} cannot touch the
 * foreign stack's data, units or pods.
 */
class RefusedBootstrapLeavesNoTraceTest {
  private static final Path CONFIG = SimCli.CONFIG;
  private static final Path FOREIGN_POD_DATA = Path.of("/var/lib/kubelet/pods/p1/volumes/data/db");
  private static final String FOREIGN_SOCKET = "/run/containerd/containerd.sock";

  private final SimulatedHost host = SimulatedHost.create();
  private final SimCli cli = new SimCli(host);
  private SimProcess foreignShim;
  private SimProcess foreignContainerd;

  @BeforeEach
  void aHostWithItsOwnKubeletAndContainerd() throws IOException {
    cli.configure(CONFIG, ConfigJson.of("1.31.4").json());
    host.installExecutable(Path.of("/usr/bin/kubelet"), "#!/bin/sh\n# kubeadm's kubelet\n");
    host.installExecutable(Path.of("/usr/bin/containerd"), "#!/bin/sh\n# debian containerd\n");
    host.installExecutable(Path.of("/usr/bin/containerd-shim-runc-v2"), "#!/bin/sh\n");
    host.fs()
        .seedFile(
            Path.of("/usr/lib/systemd/system/kubelet.service"),
            "[Service]\nExecStart=/usr/bin/kubelet\n[Install]\nWantedBy=multi-user.target\n",
            0644);
    host.fs()
        .seedFile(
            Path.of("/usr/lib/systemd/system/containerd.service"),
            "[Service]\nExecStart=/usr/bin/containerd\n[Install]\nWantedBy=multi-user.target\n",
            0644);
    host.ports().systemd().start("containerd.service", Duration.ofSeconds(10));
    host.ports().systemd().start("kubelet.service", Duration.ofSeconds(10));
    host.fs().seedFile(FOREIGN_POD_DATA, "the foreign node's pod data\n", 0600);
    host.fs()
        .seedFile(
            Path.of("/var/lib/containerd/io.containerd.metadata.v1.bolt/meta.db"), "bolt\n", 0600);
    foreignContainerd = host.processes().all().stream()
        .filter(p -> p.argv().get(0).equals("/usr/bin/containerd"))
        .findFirst()
        .orElseThrow();
    foreignShim = host.spawn(ProcessSpec.of(
            "/usr/bin/containerd-shim-runc-v2",
            "/usr/bin/containerd-shim-runc-v2",
            "-namespace",
            "k8s.io",
            "-id",
            "pod1",
            "-address",
            FOREIGN_SOCKET)
        .inCgroup("/system.slice/containerd.service"));
  }

  @Test
  void bootstrapIsRefusedBeforeItWritesAnythingAndRunsNoHostCommand() {
    FileTreeSnapshot before = host.snapshot();
    host.journal().clear();

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(boot.err())
        .contains("kubelet.service is active from /usr/lib/systemd/system/kubelet.service");
    assertThat(host.snapshot().diff(before)).as("the host tree, /opt included").isEmpty();
    assertThat(host.journal().mutatingCalls())
        .as("no lock, module, sysctl or directory")
        .isEmpty();
    assertThat(host.kernel().loadedModules()).isEmpty();
  }

  @Test
  void afterARefusalNoNodeIsPresentAndResetRemovesNothing() throws IOException {
    cli.run("bootstrap");
    FileTreeSnapshot before = host.snapshot();

    Run present = cli.run("present");
    Run reset = cli.run("reset", "--yes");

    assertThat(present.out().strip()).isEqualTo("absent");
    assertThat(reset.exitCode()).as(reset.err()).isZero();
    assertThat(reset.out()).contains("no node on this host");
    assertThat(host.snapshot().diff(before)).isEmpty();
    assertThat(host.fs().lstat(FOREIGN_POD_DATA)).isPresent();
    assertThat(host.processes().process(foreignShim.pid()))
        .as("the foreign pod's shim")
        .isPresent();
    assertThat(host.processes().process(foreignContainerd.pid())).isPresent();
    assertThat(host.systemd().peek("kubelet.service").isActive()).isTrue();
  }

  @Test
  void commitPruneAndRecoverOnAHostWithoutANodeCreateNothing() {
    FileTreeSnapshot before = host.snapshot();

    for (String command : new String[] {"commit", "prune", "recover"}) {
      Run run = cli.run(command);
      assertThat(run.exitCode()).as(command + ": " + run.err()).isZero();
    }

    assertThat(host.snapshot().diff(before)).isEmpty();
  }

  @Test
  void stopOnAHostWithoutANodeLeavesTheForeignStackRunning() {
    Run stop = cli.run("stop");

    assertThat(stop.exitCode()).as(stop.err()).isZero();
    assertThat(host.systemd().peek("kubelet.service").isActive()).isTrue();
    assertThat(host.systemd().peek("containerd.service").isActive()).isTrue();
    assertThat(host.processes().process(foreignShim.pid())).isPresent();
  }

  @Test
  void commandsThatNeedANodeSaySoAndCreateNothing() {
    FileTreeSnapshot before = host.snapshot();

    for (String command : new String[] {"apply", "upgrade", "start", "restart"}) {
      Run run = cli.run(command);
      assertThat(run.exitCode()).as(command).isEqualTo(ExitCode.FAILURE.code());
      assertThat(run.err())
          .as(command)
          .contains("'noneops bootstrap'")
          .contains("nothing was changed");
    }

    assertThat(host.snapshot().diff(before)).isEmpty();
  }
}
