package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.KubeletKernelDefaults;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kubelet runs with {@code --protect-kernel-defaults=true}, so the first bootstrap on a stock
 * kernel must have written and applied the sysctl presets before it starts kubelet, not after
 * the next reboot.
 */
class BootstrapOnAStockKernelTest {

  @Test
  void theFirstBootstrapPutsTheSysctlsInForceBeforeKubeletStarts() {
    SimulatedHost host = SimulatedHost.create();
    SimCli cli = new SimCli(host);
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).as(boot.err()).isZero();
    assertThat(host.systemd().peek("kubelet.service").isActive()).isTrue();
    KubeletKernelDefaults.EXPECTED.forEach(
        (key, value) -> assertThat(host.kernel().sysctl(key)).as(key).contains(value));
    assertThat(host.kernel().loadedModules()).contains("overlay", "br_netfilter");
  }

  @Test
  void onAStockKernelTheSimulatedKubeletRefusesToRunAsTheRealOneDoes() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.installExecutable(Path.of("/usr/local/bin/kubelet"), "#!/bin/sh\n");
    host.fs()
        .seedFile(
            Path.of("/etc/systemd/system/kubelet.service"),
            "[Service]\nExecStart=/usr/local/bin/kubelet --protect-kernel-defaults=true\n",
            0644);

    host.ports().systemd().start("kubelet.service", Duration.ofSeconds(10));

    assertThat(host.systemd().peek("kubelet.service").isActive()).isFalse();
    assertThat(new KubeletKernelDefaults(host.kernel()::sysctl)
            .refusal(List.of("/usr/local/bin/kubelet", "--protect-kernel-defaults=true")))
        .contains(
            "failed to run Kubelet: invalid kernel flag: vm/overcommit_memory, expected value: 1, actual value: 0");
  }
}
