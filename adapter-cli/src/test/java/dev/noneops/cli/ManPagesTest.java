package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The build makes a man page per command from the command model and packs it into the jar. */
class ManPagesTest {
  private final CommandLine cli = NoneopsCli.commandLine(CliRun.NO_HOST);

  @Test
  void everyCommandHasAPageNamedForItThatListsEachOfItsOptions() throws IOException {
    List<CommandLine> commands = cli.getSubcommands().values().stream()
        .filter(sub -> !sub.getCommandSpec().usageMessage().hidden())
        .toList();
    assertThat(commands).hasSizeGreaterThan(15);
    for (CommandLine command : commands) {
      String name = "noneops-" + command.getCommandName();
      String page = page(name + ".1");
      assertThat(page)
          .as(name)
          .contains(".TH \"" + troff(name.toUpperCase(Locale.ROOT)) + "\" \"1\"")
          .contains(".SH \"SYNOPSIS\"");
      for (OptionSpec option : command.getCommandSpec().options()) {
        assertThat(page)
            .as(name + " " + option.longestName())
            .contains(troff(option.longestName()));
      }
    }
  }

  @Test
  void theRootPageListsTheCommands() throws IOException {
    assertThat(page("noneops.1")).contains("bootstrap", "upgrade", "status", "reset");
  }

  @Test
  void aHiddenCommandHasNoPage() {
    assertThat(getClass().getResource("/man/man1/noneops-" + CdsTrainingCommand.NAME + ".1"))
        .isNull();
  }

  private String page(String file) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/man/man1/" + file)) {
      assertThat(in).as("man page " + file + " in the jar's man/man1").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** How the page writes a word: troff escapes each hyphen. */
  private static String troff(String text) {
    return text.replace("-", "\\-");
  }
}
