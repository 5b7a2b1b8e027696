package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --config} is taken by every command that reads a configuration file, and by no other: a
 * command that reads none (it reads the applied configuration, or no configuration at all) says
 * so when given one, and names the commands that take it.
 */
class ConfigOptionTest {
  private static final Set<String> READ_A_CONFIGURATION = Set.of(
      "preflight",
      "bootstrap",
      "apply",
      "upgrade",
      "daemon",
      "update-agent",
      "start",
      "restart",
      "plan",
      "version-for");

  /** recover reads the applied configuration only (the one the node ran), so takes none. */
  @Test
  void exactlyTheCommandsThatReadAConfigurationTakeConfig() {
    CommandLine cli = NoneopsCli.commandLine(CliRun.NO_HOST);
    Set<String> taking = new TreeSet<>();
    cli.getSubcommands().forEach((name, sub) -> {
      if (sub.getCommandSpec().findOption("--config") != null) {
        taking.add(name);
      }
    });

    assertThat(taking).isEqualTo(new TreeSet<>(READ_A_CONFIGURATION));
  }

  @Test
  void aCommandThatReadsNoConfigurationSaysSoWhenGivenOneAndNamesThoseThatRead() {
    for (NoneopsCli.Subcommand sub : NoneopsCli.SUBCOMMANDS) {
      if (READ_A_CONFIGURATION.contains(sub.name())) {
        continue;
      }
      for (String[] args : new String[][] {
        {sub.name(), "--config", "/etc/unbounded/agent/config.json"},
        {sub.name(), "--config=/etc/unbounded/agent/config.json"}
      }) {
        CliRun run = CliRun.of(CliRun.NO_HOST, args);

        assertThat(run.exitCode()).as(sub.name()).isEqualTo(ExitCode.USAGE.code());
        String first = run.err().lines().findFirst().orElse("");
        assertThat(first)
            .as(sub.name())
            .contains("reads no configuration file")
            .contains("preflight, bootstrap, apply, upgrade");
      }
    }
  }
}
