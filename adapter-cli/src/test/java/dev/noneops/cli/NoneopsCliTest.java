package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** The command line built for one invocation holds only the command it runs and answers as the whole one does. */
class NoneopsCliTest {
  private static final CliEnvironment NO_HOST = CliRun.NO_HOST;

  @Test
  void everySubcommandIsListedUnderTheNameItsAnnotationGives() {
    for (NoneopsCli.Subcommand sub : NoneopsCli.SUBCOMMANDS) {
      assertThat(sub.make().get().getClass().getAnnotation(Command.class).name())
          .isEqualTo(sub.name());
    }
  }

  @Test
  void theWholeCommandLineHasEverySubcommandInTheTablesOrderThenCompletionAndHelp() {
    List<String> expected = new ArrayList<>(
        NoneopsCli.SUBCOMMANDS.stream().map(NoneopsCli.Subcommand::name).toList());
    expected.add("completion");
    expected.add("help");

    assertThat(NoneopsCli.commandLine(NO_HOST).getSubcommands().keySet())
        .containsExactlyElementsOf(expected);
  }

  @Test
  void aCommandNamedAfterTheRootsFlagsGetsACommandLineOfItselfAlone() {
    assertThat(NoneopsCli.commandLine(NO_HOST, "status").getSubcommands().keySet())
        .containsExactly("status");
    assertThat(NoneopsCli.commandLine(
                NO_HOST, "--json", "-vv", "--verbose", "upgrade", "--config", "x.json")
            .getSubcommands()
            .keySet())
        .containsExactly("upgrade");
  }

  @Test
  void helpCompletionUnknownCommandsAndAnythingUnusualGetTheWholeCommandLine() {
    int whole = NoneopsCli.SUBCOMMANDS.size() + 2; // completion and help
    for (String[] args : List.of(
        new String[] {},
        new String[] {"--help"},
        new String[] {"-h", "status"},
        new String[] {"--version"},
        new String[] {"help", "status"},
        new String[] {"frobnicate"},
        new String[] {"statu"},
        new String[] {"completion"},
        new String[] {"cds-training"},
        new String[] {"@args.txt"},
        new String[] {"--", "status"},
        new String[] {"--json=true", "status"},
        new String[] {"-vh", "status"})) {
      assertThat(NoneopsCli.commandLine(NO_HOST, args).getSubcommands())
          .as(String.join(" ", args))
          .hasSize(whole);
    }
  }

  /** A host that cannot be reached: a command that goes as far as connecting fails the same way on both command lines. */
  private static final CliEnvironment UNREACHABLE_HOST = new CliEnvironment(
      () -> {
        throw new java.io.IOException("no host in this test");
      },
      () -> false,
      "1.2.3-test");

  @Test
  void everyCommandsHelpAndUsageErrorsAreThoseOfTheWholeCommandLine() {
    for (NoneopsCli.Subcommand sub : NoneopsCli.SUBCOMMANDS) {
      for (String[] args : List.of(
          new String[] {sub.name(), "--help"},
          new String[] {"--json", sub.name(), "-h"},
          new String[] {sub.name(), "--no-such-option"},
          new String[] {sub.name(), "extra", "arguments"})) {
        CliRun lean = CliRun.on(NoneopsCli.commandLine(UNREACHABLE_HOST, args), args);
        CliRun whole = CliRun.on(NoneopsCli.commandLine(UNREACHABLE_HOST), args);
        assertThat(lean).as(String.join(" ", args)).isEqualTo(whole);
      }
    }
  }

  @Test
  void anUnknownCommandReadsAsOnTheWholeCommandLine() {
    String[] args = {"frobnicate"};

    assertThat(CliRun.on(NoneopsCli.commandLine(NO_HOST, args), args))
        .isEqualTo(CliRun.on(NoneopsCli.commandLine(NO_HOST), args));
  }
}
