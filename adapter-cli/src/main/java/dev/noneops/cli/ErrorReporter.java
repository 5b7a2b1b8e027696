package dev.noneops.cli;

import dev.noneops.cli.output.Json;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.upgrade.NodeBusyException;
import dev.noneops.core.upgrade.RollbackOutcome;
import dev.noneops.core.upgrade.UpgradeFailedException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one clear line on stderr ({@code noneops <command>: <what went
 * wrong>}) and the exit code of {@link ExitCode}; with {@code --json} the same error is also
 * printed as a JSON document on stdout, so a script reading stdout always gets a document.
 * Stack traces only with {@code -vv}.
 */
public final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {

  private final Map<Class<? extends Throwable>, Function<Throwable, ExitCode>> mapping = new LinkedHashMap<>();

  public ErrorReporter() {
    map(CliException.class, e -> ((CliException) e).exitCode());
    map(InvalidConfigException.class, e -> ExitCode.INVALID_CONFIG);
    map(NodeBusyException.class, e -> ExitCode.BUSY);
    map(UpgradeFailedException.class, e -> ((UpgradeFailedException) e).outcome() == RollbackOutcome.ROLLED_BACK
        ? ExitCode.ROLLED_BACK : ExitCode.FAILURE);
  }

  /** Registers how a failure type maps to an exit code; earlier registrations win. */
  public ErrorReporter map(Class<? extends Throwable> type, Function<Throwable, ExitCode> code) {
    mapping.putIfAbsent(type, code);
    return this;
  }

  /** The exit code a failure maps to: the first registered type it is an instance of, else FAILURE. */
  public ExitCode exitCodeOf(Throwable failure) {
    for (Map.Entry<Class<? extends Throwable>, Function<Throwable, ExitCode>> e : mapping.entrySet()) {
      if (e.getKey().isInstance(failure)) {
        return e.getValue().apply(failure);
      }
    }
    return ExitCode.FAILURE;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parsed) {
    ExitCode code = exitCodeOf(ex);
    report(commandLine, parsed, code, oneLine(ex), ex);
    return code.code();
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options and exit codes.");
    err.flush();
    return ExitCode.USAGE.code();
  }

  private static void report(CommandLine cmd, ParseResult parsed, ExitCode code, String message, Throwable ex) {
    PrintWriter err = cmd.getErr();
    err.println(cmd.getCommandSpec().qualifiedName() + ": " + message);
    if (verbosity(parsed) >= 2) {
      StringWriter trace = new StringWriter();
      ex.printStackTrace(new PrintWriter(trace));
      err.print(trace);
    }
    err.flush();
    if (asksForJson(parsed)) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("exitCode", code.code());
      error.put("kind", code.name());
      error.put("message", message);
      Json.print(cmd.getOut(), cmd.getCommandSpec().name(), Map.of("ok", false, "error", error));
    }
  }

  /**
   * The failure as one line: its message with line breaks folded into {@code "; "}, followed by
   * the distinct messages of its causes.
   */
  static String oneLine(Throwable ex) {
    List<String> parts = new ArrayList<>();
    for (Throwable t = ex; t != null; t = t.getCause()) {
      String raw = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
      String m = raw.replaceAll("\\s*\\R\\s*-?\\s*", "; ").replace(":;", ":");
      if (parts.stream().noneMatch(p -> p.contains(m))) {
        parts.add(m);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return String.join(": ", parts);
  }

  private static boolean asksForJson(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--json")) {
        return true;
      }
    }
    return false;
  }

  private static int verbosity(ParseResult parsed) {
    int v = 0;
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("-v")) {
        boolean[] flags = p.matchedOptionValue("-v", new boolean[0]);
        v = Math.max(v, flags.length);
      }
    }
    return v;
  }
}
