package dev.noneops.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Builds the {@code noneops} command line: the root, the subcommands, the exit-code table in
 * the root's {@code --help} (a subcommand's ends pointing at it), and the error reporting. The composition root passes the environment;
 * tests pass one over a simulated host and read the output from {@code setOut}/{@code setErr}.
 *
 * <p>picocli builds a command's model by reflection when the command is added, which is most of
 * a short command's start-up. {@link #commandLine(CliEnvironment, String...)} therefore adds only
 * the subcommand the arguments name, when they plainly name one; every other invocation (no
 * command, {@code --help}, an unknown or mistyped command, {@code completion}, an argument file)
 * gets the whole command line of {@link #commandLine(CliEnvironment)}, so help, completion and
 * usage errors are those of the full CLI.
 */
public final class NoneopsCli {

  /** A subcommand by the name its {@code @Command} annotation gives it. */
  record Subcommand(String name, Supplier<Object> make) {}

  /** Every subcommand, in the order {@code --help} lists them; {@code completion} follows them. */
  static final List<Subcommand> SUBCOMMANDS = List.of(
      new Subcommand("preflight", PreflightCommand::new),
      new Subcommand("bootstrap", BootstrapCommand::new),
      new Subcommand("apply", ApplyCommand::new),
      new Subcommand("upgrade", UpgradeCommand::new),
      new Subcommand("recover", RecoverCommand::new),
      new Subcommand("daemon", DaemonCommand::new),
      new Subcommand("update-agent", UpdateAgentCommand::new),
      new Subcommand("commit", CommitCommand::new),
      new Subcommand("prune", PruneCommand::new),
      new Subcommand("start", StackCommands.StartCommand::new),
      new Subcommand("stop", StackCommands.StopCommand::new),
      new Subcommand("restart", StackCommands.RestartCommand::new),
      new Subcommand("status", StatusCommand::new),
      new Subcommand("versions", VersionsCommand::new),
      new Subcommand("verify", VerifyCommand::new),
      new Subcommand("plan", PlanCommand::new),
      new Subcommand("present", PresentCommand::new),
      new Subcommand("allocation-launch-check", LaunchCheckCommand::new),
      new Subcommand("reset", ResetCommand::new),
      new Subcommand("version-for", VersionForCommand::new),
      new Subcommand("version", VersionCommand::new),
      new Subcommand("demo", DemoPointerCommand::new),
      new Subcommand("cds-training", CdsTrainingCommand::new));

  /** Subcommands that read the whole command line: they get all of it even when named. */
  private static final Set<String> NEED_EVERY_COMMAND = Set.of("cds-training");

  /** The root's own options that may stand before the subcommand and do not end the command line. */
  private static final Set<String> ROOT_FLAGS = Set.of("--json", "--verbose");

  /** The last section of a subcommand's help: where the exit codes are. */
  static final String SECTION_KEY_EXIT_CODES_POINTER = "exitCodesPointer";

  /** The line it prints, after a blank one. */
  static final String EXIT_CODES_POINTER =
      String.format("%nExit status: see the table in 'noneops --help' or 'man noneops'.%n");

  private NoneopsCli() {}

  /** The whole command line: every subcommand and {@code completion}. */
  public static CommandLine commandLine(CliEnvironment environment) {
    CommandLine cli = new CommandLine(new NoneopsCommand(environment));
    for (Subcommand sub : SUBCOMMANDS) {
      cli.addSubcommand(sub.name(), sub.make().get());
    }
    CommandLine completion = new CommandLine(new CompletionCommand());
    cli.addSubcommand("completion", completion);
    // 'noneops help [command]', as many command lines have it: the same text as --help; not listed.
    CommandLine help = new CommandLine(new CommandLine.HelpCommand());
    help.getCommandSpec()
        .usageMessage()
        .hidden(true)
        .description("Print the help of noneops, or of the COMMAND named: what --help prints.");
    cli.addSubcommand("help", help);
    applyToAll(cli, new ErrorReporter());
    return cli;
  }

  /**
   * The command line that runs {@code args}: the root with only the subcommand they name when
   * they name one plainly (after nothing but {@code --json} and {@code -v}), else the whole
   * command line. Either way {@code execute(args)} behaves as on the whole command line.
   */
  public static CommandLine commandLine(CliEnvironment environment, String... args) {
    Optional<Subcommand> named = invoked(args);
    if (named.isEmpty()) {
      return commandLine(environment);
    }
    CommandLine cli = new CommandLine(new NoneopsCommand(environment));
    cli.addSubcommand(named.get().name(), named.get().make().get());
    applyToAll(cli, new ErrorReporter());
    return cli;
  }

  /**
   * The commands that read a configuration file and so take {@code --config} ({@link
   * ConfigOption}), in {@code --help}'s order; the others read the applied configuration or none.
   */
  static List<String> commandsReadingAConfiguration() {
    List<String> names = new ArrayList<>();
    for (Subcommand sub : SUBCOMMANDS) {
      Class<?> type = sub.make().get().getClass();
      for (Field field : type.getDeclaredFields()) {
        if (field.getType() == ConfigOption.class) {
          names.add(sub.name());
          break;
        }
      }
    }
    return names;
  }

  /** The subcommand {@code args} name, when only the root's flags stand before it and it needs nothing else. */
  static Optional<Subcommand> invoked(String... args) {
    for (String arg : args) {
      if (ROOT_FLAGS.contains(arg) || arg.matches("-v+")) {
        continue;
      }
      if (NEED_EVERY_COMMAND.contains(arg)) {
        return Optional.empty();
      }
      return SUBCOMMANDS.stream().filter(s -> s.name().equals(arg)).findFirst();
    }
    return Optional.empty();
  }

  /** A command's footer (its examples), each line as written, without wrapping. */
  private static String examplesAsWritten(Help help) {
    StringBuilder out = new StringBuilder();
    for (String line : help.commandSpec().usageMessage().footer()) {
      out.append(line).append(System.lineSeparator());
    }
    return out.toString();
  }

  private static void applyToAll(CommandLine cmd, ErrorReporter errors) {
    cmd.setExecutionExceptionHandler(errors);
    cmd.setParameterExceptionHandler(errors);
    cmd.setExitCodeExceptionMapper(t -> errors.exitCodeOf(t).code());
    if (cmd.getParent() == null) {
      cmd.getCommandSpec()
          .usageMessage()
          .exitCodeListHeading("%nExit codes:%n")
          .exitCodeList(ExitCode.helpList());
    } else {
      // the table is the root's (and its man page's); a subcommand's help ends pointing at it
      List<String> keys = new ArrayList<>(cmd.getHelpSectionKeys());
      keys.add(SECTION_KEY_EXIT_CODES_POINTER);
      cmd.setHelpSectionKeys(keys);
      cmd.getHelpSectionMap().put(SECTION_KEY_EXIT_CODES_POINTER, help -> EXIT_CODES_POINTER);
    }
    if (!cmd.getCommandSpec().mixinStandardHelpOptions()) {
      cmd.getCommandSpec().mixinStandardHelpOptions(true);
    }
    // the examples are command lines to paste: printed as written, never wrapped
    cmd.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER, NoneopsCli::examplesAsWritten);
    cmd.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE.code());
    cmd.getCommandSpec().exitCodeOnExecutionException(ExitCode.FAILURE.code());
    for (CommandLine sub : cmd.getSubcommands().values()) {
      applyToAll(sub, errors);
    }
  }
}
