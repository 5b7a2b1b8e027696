package dev.noneops.cli;

import dev.noneops.cli.output.Json;
import dev.noneops.cli.output.ProgressOutput;
import dev.noneops.cli.output.ProgressTerminal;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.node.LockWait;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every subcommand shares: the root's options, stdout and stderr, the environment, and the
 * rule that a command which changes the host runs only as root.
 */
public abstract class CliCommand implements Callable<Integer> {

  @ParentCommand
  NoneopsCommand root;

  @Spec
  CommandSpec spec;

  private ProgressOutput progress;

  /** The command's name as typed, e.g. {@code upgrade}. */
  protected final String name() {
    return spec.name();
  }

  protected final CliEnvironment environment() {
    return root.environment();
  }

  protected final boolean json() {
    return root.json();
  }

  protected final int verbosity() {
    return root.verbosity();
  }

  /**
   * Results. The live progress on a terminal is closed first, so a result never lands among the
   * lines it redraws; later events are plain lines.
   */
  protected final PrintWriter out() {
    if (progress != null) {
      progress.close();
    }
    return spec.commandLine().getOut();
  }

  /** Progress, warnings and errors. */
  protected final PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Prints {@code result} as this command's JSON document. */
  protected final void printJson(Object result) {
    Json.print(out(), name(), result);
  }

  /** Refuses to go on unless the process runs as root; called before anything is read or changed. */
  protected final void requireRoot() {
    if (!environment().privileged().getAsBoolean()) {
      throw new CliException(
          ExitCode.NOT_ROOT,
          "'noneops " + name()
              + "' changes the host and must run as root (try sudo); nothing was changed");
    }
  }

  /**
   * Goes on only when {@code yes} was given or the operator answers yes to {@code question} on
   * stdin's terminal. Refuses with exit 2 when stdin is no terminal (say {@code --yes}), and with
   * exit 1 when the operator answers no; either way before anything is changed.
   */
  protected final void confirm(YesOption yes, String question) {
    if (yes.given()) {
      return;
    }
    boolean answer = environment()
        .confirmation()
        .ask(err(), question)
        .orElseThrow(() -> new CliException(
            ExitCode.USAGE,
            "'noneops " + name() + "' asks before it goes on and stdin is not a terminal;"
                + " pass --yes to go on without asking (nothing was changed)"));
    if (!answer) {
      throw new CliException(ExitCode.FAILURE, "not confirmed; nothing was changed");
    }
  }

  /**
   * The configuration in {@code file}, which this command follows: run as root, only when no user
   * or group but root can change the file or a directory or link on the way to it, checked before
   * it is read.
   *
   * @throws dev.noneops.core.config.WritableByOthersException when others can change it (exit 3)
   */
  protected final AgentConfig readFollowedConfig(NodeContext ctx, Path file) throws IOException {
    if (environment().privileged().getAsBoolean()) {
      new RootOnlyPath(ctx.ports().files()).require("the configuration file", file);
    }
    return ctx.readConfig(file);
  }

  /**
   * The node's events, rendered on stderr: JSON lines with {@code --json}, live bars on a
   * terminal, else plain lines; plain lines with {@code -v} too, whose log lines would break
   * into the redrawn ones. Close it before printing the result.
   */
  protected final ProgressOutput progress() {
    ProgressTerminal terminal =
        verbosity() > 0 ? ProgressTerminal.NONE : environment().terminal();
    progress = new ProgressOutput(err(), json(), terminal);
    return progress;
  }

  /** Connects to the host for this command. */
  final NodeContext openNode() throws IOException {
    return withLockWait(NodeContext.open(environment(), progress()));
  }

  private NodeContext withLockWait(NodeContext context) {
    PrintWriter err = err();
    return context.lockWait(new LockWait(lockTimeout(), line -> {
      err.println("noneops " + name() + ": " + line);
      err.flush();
    }));
  }

  /**
   * How long this command waits for the node lock another process holds: an operator's mutating
   * command has {@code --lock-timeout} ({@link LockTimeoutOption}); the others (the daemon, which
   * tries again at its next tick, and the commands that take no lock) are refused at once.
   */
  protected Duration lockTimeout() {
    return Duration.ZERO;
  }

  /**
   * Inspects the node from this process and prints {@code what} ({@link InspectionReport}): the
   * command's own path, taken with {@code --direct} or when the agent's daemon did not answer
   * ({@link DaemonAnswers}).
   */
  final ExitCode inspect(Inspection what, DirectOption direct) throws IOException {
    LoggerFactory.getLogger(getClass())
        .debug(
            "{}: inspecting the host from this process{}",
            what.command(),
            direct.requested() ? " (" + DirectOption.NAME + ")" : "");
    try (NodeContext ctx = withLockWait(NodeContext.openToRead(environment(), progress()))) {
      InspectionReport report = InspectionReport.of(
          what,
          json(),
          ctx.node(Optional.empty(), Optional.empty()),
          ctx.ports(),
          ctx.session().paths());
      PrintWriter out = out();
      out.print(report.stdout());
      out.flush();
      return report.exitCode();
    }
  }

  /** Monotonic now, for the durations a command reports. */
  protected static long now() {
    return System.nanoTime();
  }

  protected static long millisSince(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Override
  public final Integer call() throws Exception {
    return execute().code();
  }

  /** Runs the command; returns how it ended. Failures are thrown and mapped by {@link ErrorReporter}. */
  protected abstract ExitCode execute() throws Exception;
}
