package dev.noneops.hostfs.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.CommandResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The commands kernel tuning runs and how their failures become errnos. */
class CommandKernelTuningTest {
  private final List<List<String>> run = new ArrayList<>();
  private CommandResult answer = new CommandResult(0, "", "", false);
  private final CommandKernelTuning tuning = new CommandKernelTuning(
      command -> {
        run.add(command.argv());
        return answer;
      },
      Duration.ofSeconds(5));

  @Test
  void modulesAndPresetsAreLoadedAndAppliedByModprobeAndSysctl() throws Exception {
    tuning.loadModule("br_netfilter");
    tuning.applySysctlPresets();

    assertThat(run)
        .containsExactly(List.of("modprobe", "br_netfilter"), List.of("sysctl", "--system"));
  }

  @Test
  void aModuleTheKernelLacksIsEnoent() {
    answer = new CommandResult(
        1,
        "",
        "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.1.0-28-amd64\n",
        false);

    assertThatThrownBy(() -> tuning.loadModule("nvidia"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT))
        .hasMessageContaining("load kernel module nvidia")
        .hasMessageContaining("not found in directory");
  }

  @Test
  void aSysctlIsReadTrimmedAndOneTheKernelLacksIsEmpty() throws Exception {
    answer = new CommandResult(0, "1\n", "", false);
    assertThat(tuning.sysctl("net.ipv4.ip_forward")).contains("1");

    answer = new CommandResult(
        255,
        "",
        "sysctl: cannot stat /proc/sys/net/ipv4/nosuch: No such file or directory\n",
        false);
    assertThat(tuning.sysctl("net.ipv4.nosuch")).isEmpty();
    assertThat(run).contains(List.of("sysctl", "-n", "net.ipv4.nosuch"));
  }
}
