package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops bootstrap --config FILE} makes the daemon it installs follow FILE as root: a file
 * another user can write is refused with one line naming it, its owner and mode, the exit code of
 * a bad configuration, and a host left as it was.
 */
class BootstrapRefusesAFileAUserCanWriteTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final SimCli cli = new SimCli(host).withAgent();

  @Test
  void aConfigurationFileInAUsersHomeIsRefusedChangingNothing() throws IOException {
    Path file = Path.of("/home/alice/node.json");
    cli.configure(file, ConfigJson.of("1.31.4").json());
    host.fs().seedOwner(file, 1000, 1000);
    FileTreeSnapshot before = host.snapshot();

    Run boot = cli.run("bootstrap", "--config", file.toString());

    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(boot.err().lines().filter(line -> line.startsWith("noneops bootstrap: ")))
        .as("the error line, below the steps' progress")
        .singleElement()
        .asString()
        .contains(file.toString(), "owner 1000", "mode 0600");
    assertThat(host.snapshot().diff(before)).isEmpty();
  }
}
