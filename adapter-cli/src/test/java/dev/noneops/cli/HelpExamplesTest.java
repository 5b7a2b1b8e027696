package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every example in a command's {@code --help} is printed as one line, whatever the width, so an
 * operator can paste it: an example is never wrapped, least of all inside a token.
 */
class HelpExamplesTest {

  @Test
  void everyExampleOfEveryCommandIsOneLineOfItsHelp() {
    CommandLine cli = NoneopsCli.commandLine(CliRun.NO_HOST);
    for (CommandLine command : cli.getSubcommands().values()) {
      List<String> examples = List.of(command.getCommandSpec().usageMessage().footer()).stream()
          .filter(line -> line.startsWith("  noneops") || line.startsWith("  source"))
          .toList();
      String help = command.getUsageMessage();
      List<String> lines = help.lines().toList();
      for (String example : examples) {
        assertThat(lines).as(command.getCommandName() + " --help:\n" + help).contains(example);
      }
    }
  }
}
