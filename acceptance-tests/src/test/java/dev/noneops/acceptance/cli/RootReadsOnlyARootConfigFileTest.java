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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code noneops apply}, {@code upgrade}, {@code plan} and {@code bootstrap --no-agent} run as root follow {@code --config FILE}
 * only when no user or group but root can change it: a file in a user's home is refused before it
 * is read, with one line naming the entry, its owner and mode, exit 3, and the node left as it was.
 */
class RootReadsOnlyARootConfigFileTest {
  private static final Path ALICES = Path.of("/home/alice/node.json");

  private final SimulatedHost host = SimulatedHost.create();
  private final SimCli cli = new SimCli(host);

  @ParameterizedTest
  @ValueSource(strings = {"apply", "upgrade", "plan"})
  void aConfigurationFileAUserOwnsIsRefusedBeforeItIsRead(String command) throws IOException {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    Run boot = cli.run("bootstrap");
    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.OK.code());
    cli.configure(ALICES, ConfigJson.of("1.31.4").json());
    host.fs().seedOwner(ALICES, 1000, 1000);
    FileTreeSnapshot before = host.snapshot();

    Run run = cli.run(command, "--config", ALICES.toString());

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.err().lines().filter(line -> line.startsWith("noneops " + command + ": ")))
        .singleElement()
        .asString()
        .contains(ALICES.toString(), "owner 1000", "mode 0600", "other than root");
    assertThat(host.snapshot().diff(before)).isEmpty();
  }

  @Test
  void aBootstrapWithoutTheAgentRefusesItToo() throws IOException {
    cli.configure(ALICES, ConfigJson.of("1.31.4").json());
    host.fs().seedOwner(ALICES, 1000, 1000);
    FileTreeSnapshot before = host.snapshot();

    Run boot = cli.run("bootstrap", "--no-agent", "--config", ALICES.toString());

    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(boot.err()).contains(ALICES + " (owner 1000, mode 0600)");
    assertThat(host.snapshot().diff(before)).isEmpty();
  }
}
