package dev.noneops.cli;

import java.util.List;
import java.util.function.Supplier;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Builds the {@code noneops} command line: the root, every subcommand, the exit-code table in
 * every {@code --help}, and the error reporting. The composition root passes the environment;
 * tests pass one over a simulated host and read the output from {@code setOut}/{@code setErr}.
 */
public final class NoneopsCli {

  /** Every subcommand, in the order {@code --help} lists them. */
  static final List<Supplier<Object>> SUBCOMMANDS = List.of(
      BootstrapCommand::new,
      ApplyCommand::new,
      UpgradeCommand::new,
      RecoverCommand::new,
      CommitCommand::new,
      PruneCommand::new,
      StackCommands.StartCommand::new,
      StackCommands.StopCommand::new,
      StackCommands.RestartCommand::new,
      StatusCommand::new,
      VersionsCommand::new,
      VerifyCommand::new,
      PlanCommand::new,
      PresentCommand::new,
      LaunchCheckCommand::new,
      ResetCommand::new,
      VersionForCommand::new,
      VersionCommand::new,
      DemoCommand::new,
      CdsTrainingCommand::new);

  private NoneopsCli() {}

  public static CommandLine commandLine(CliEnvironment environment) {
    ErrorReporter errors = new ErrorReporter();
    CommandLine cli = new CommandLine(new NoneopsCommand(environment));
    for (Supplier<Object> sub : SUBCOMMANDS) {
      cli.addSubcommand(sub.get());
    }
    CommandLine completion = new CommandLine(new AutoComplete.GenerateCompletion());
    completion.getCommandSpec().usageMessage().hidden(false);
    cli.addSubcommand("completion", completion);
    applyToAll(cli, errors);
    return cli;
  }

  private static void applyToAll(CommandLine cmd, ErrorReporter errors) {
    cmd.setExecutionExceptionHandler(errors);
    cmd.setParameterExceptionHandler(errors);
    cmd.setExitCodeExceptionMapper(t -> errors.exitCodeOf(t).code());
    cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCode.helpList());
    if (!cmd.getCommandSpec().mixinStandardHelpOptions()) {
      cmd.getCommandSpec().mixinStandardHelpOptions(true);
    }
    cmd.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE.code());
    cmd.getCommandSpec().exitCodeOnExecutionException(ExitCode.FAILURE.code());
    for (CommandLine sub : cmd.getSubcommands().values()) {
      applyToAll(sub, errors);
    }
  }
}
