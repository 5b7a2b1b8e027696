package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.KubeletKernelDefaults;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code bootstrap --no-kernel-modules} is for a host whose kernel is not the node's to change:
 * nothing the node writes changes it then or at the next boot. The operator has put the values
 * kubelet's {@code --protect-kernel-defaults} checks in force with a preset file of their own.
 */
class BootstrapThatLeavesTheKernelAloneTest {
  private static final Path OPERATORS_PRESET = Path.of("/etc/sysctl.d/50-operator.conf");
  private static final Path NODES_PRESET = Path.of("/etc/sysctl.d/99-kubernetes.conf");
  private static final Path MODULES_LOAD = Path.of("/etc/modules-load.d/unbounded-kubernetes.conf");

  @Test
  void neitherTheBootstrapNorALaterApplyWritesAPresetTheNextBootWouldApply() throws IOException {
    SimulatedHost host = SimulatedHost.create();
    host.fs()
        .seedFile(
            OPERATORS_PRESET,
            KubeletKernelDefaults.EXPECTED.entrySet().stream()
                .map(e -> e.getKey() + " = " + e.getValue() + "\n")
                .collect(Collectors.joining()),
            0644);
    host.kernel().boot();
    SimCli cli = new SimCli(host);
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    Run boot = cli.run("bootstrap", "--no-kernel-modules");
    Run apply = cli.run("apply");

    assertThat(boot.exitCode()).as(boot.err()).isZero();
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    assertThat(host.systemd().peek("kubelet.service").isActive()).isTrue();
    assertThat(host.fs().lstat(MODULES_LOAD)).isEmpty();
    assertThat(host.fs().lstat(NODES_PRESET)).as("the node's sysctl preset").isEmpty();
    host.kernel().boot();
    assertThat(host.kernel().sysctl("net.ipv4.ip_forward"))
        .as("a sysctl the operator did not set keeps the kernel's value after a reboot")
        .contains("0");
    assertThat(host.kernel().loadedModules()).isEmpty();
  }
}
