package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.NoneopsCli;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --help} reads as kubectl's does: every command has a one-line summary that fits the
 * command list, descriptions are paragraphs the terminal wraps (no hard line breaks), and every
 * command ends with examples.
 */
class HelpReadsTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  private Map<String, CommandLine> commands() {
    return NoneopsCli.commandLine(cli.environment()).getSubcommands();
  }

  @Test
  void everyCommandHasAOneLineSummaryThatFitsTheCommandList() {
    commands().forEach((name, command) -> {
      if (command.getCommandSpec().usageMessage().hidden()) {
        return;
      }
      String[] header = command.getCommandSpec().usageMessage().header();
      assertThat(header).as(name).hasSize(1);
      assertThat(header[0]).as(name).hasSizeLessThanOrEqualTo(50).doesNotEndWith(".");
    });
  }

  @Test
  void descriptionsAndOptionsAreParagraphsWithoutHardLineBreaks() {
    commands().forEach((name, command) -> {
      CommandSpec spec = command.getCommandSpec();
      assertThat(spec.usageMessage().description()).as(name).hasSizeLessThanOrEqualTo(1);
      for (OptionSpec option : spec.options()) {
        assertThat(option.description())
            .as(name + " " + option.longestName())
            .hasSizeLessThanOrEqualTo(1);
      }
    });
  }

  @Test
  void everyCommandEndsWithExamples() {
    commands().forEach((name, command) -> {
      if (command.getCommandSpec().usageMessage().hidden()) {
        return;
      }
      assertThat(command.getCommandSpec().usageMessage().footerHeading())
          .as(name)
          .contains("Examples:");
      assertThat(List.of(command.getCommandSpec().usageMessage().footer()))
          .as(name)
          .isNotEmpty()
          .allSatisfy(line -> assertThat(line).startsWith("  "));
    });
  }

  @Test
  void theCommandListShowsEachCommandOnOneLineOfEightyColumns() {
    Run help = cli.run("--help");

    List<String> list = help.out()
        .lines()
        .dropWhile(l -> !l.equals("Commands:"))
        .skip(1)
        .takeWhile(l -> !l.isBlank())
        .toList();
    assertThat(list)
        .isNotEmpty()
        .allSatisfy(
            line -> assertThat(line).hasSizeLessThanOrEqualTo(80).matches("  [a-z-]+ +\\S.*"));
  }
}
