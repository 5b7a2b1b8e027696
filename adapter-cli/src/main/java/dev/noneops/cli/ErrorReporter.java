package dev.noneops.cli;

import dev.noneops.cli.output.Json;
import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.ports.systemd.SystemdException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one clear line on stderr ({@code noneops <command>: <what went
 * wrong>}, for a node's failure where it happened and what went wrong: {@code noneops upgrade:
 * a → b failed at upgrade-start-target › start › wait-kubelet: …; rolled back: …}) and the exit
 * code of {@link ExitCode}, which comes from the failure's type. With {@code --json} the same
 * error is also printed as a JSON document on stdout ({@code failedAt} and {@code causes}
 * included; an invalid configuration's causes are its violations, each {@code {path, reason}}),
 * so a script reading stdout always gets a document. {@code -v} adds the task path
 * and the causes below the line, {@code -vv} the stack trace.
 */
public final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private static final String CONFIG = "--config";

  private final Map<Class<? extends Throwable>, Function<Throwable, ExitCode>> mapping =
      new LinkedHashMap<>();

  public ErrorReporter() {
    map(CliException.class, e -> ((CliException) e).exitCode());
    map(InvalidConfigException.class, e -> ExitCode.INVALID_CONFIG);
    map(WritableByOthersException.class, e -> ExitCode.INVALID_CONFIG);
    map(NodeBusyException.class, e -> ExitCode.BUSY);
    map(
        UpgradeFailedException.class,
        e -> ((UpgradeFailedException) e).outcome() == RollbackOutcome.ROLLED_BACK
            ? ExitCode.ROLLED_BACK
            : ExitCode.FAILURE);
  }

  /** Registers how a failure type maps to an exit code; earlier registrations win. */
  public ErrorReporter map(Class<? extends Throwable> type, Function<Throwable, ExitCode> code) {
    mapping.putIfAbsent(type, code);
    return this;
  }

  /** The exit code a failure maps to: the first registered type it is an instance of, else FAILURE. */
  public ExitCode exitCodeOf(Throwable failure) {
    for (Map.Entry<Class<? extends Throwable>, Function<Throwable, ExitCode>> e :
        mapping.entrySet()) {
      if (e.getKey().isInstance(failure)) {
        return e.getValue().apply(failure);
      }
    }
    return ExitCode.FAILURE;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parsed) {
    ExitCode code = exitCodeOf(ex);
    report(commandLine, parsed, code, oneLine(ex) + remedy(ex), ex);
    return code.code();
  }

  /** What to do about a failure whose cause says it, or nothing. */
  static String remedy(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SystemdException s && s.kind() == SystemdException.Kind.UNREACHABLE) {
        return "; run it on a host booted with systemd whose system bus is reachable";
      }
    }
    return "";
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    String line = usageLine(ex);
    err.println(cmd.getCommandSpec().qualifiedName() + ": " + line);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName()
        + " --help' for the options and exit codes.");
    err.flush();
    if (asksForJson(args)) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("exitCode", ExitCode.USAGE.code());
      error.put("kind", ExitCode.USAGE.name());
      error.put("message", line);
      error.put("causes", List.of());
      Json.print(cmd.getOut(), cmd.getCommandSpec().name(), Map.of("ok", false, "error", error));
    }
    return ExitCode.USAGE.code();
  }

  /** Whether the raw command line asks for {@code --json} (before any {@code --}). */
  private static boolean asksForJson(String[] args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        return false;
      }
      if (arg.equals("--json")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A usage error as one line: an unknown command or option is named as such, with the closest
   * known ones ("did you mean") when picocli finds any; {@code --config} given to a command that
   * reads no configuration file says so and names the commands that read one.
   */
  static String usageLine(ParameterException ex) {
    if (ex instanceof UnmatchedArgumentException unmatched
        && !unmatched.getUnmatched().isEmpty()) {
      String word = unmatched.getUnmatched().get(0);
      if ((word.equals(CONFIG) || word.startsWith(CONFIG + "="))
          && unmatched.getCommandLine().getParent() != null) {
        return "reads no configuration file, so it takes no " + CONFIG + " (the commands that"
            + " read one take it: " + String.join(", ", NoneopsCli.commandsReadingAConfiguration())
            + ")";
      }
      boolean option = word.startsWith("-");
      boolean command = !option && unmatched.getCommandLine().getSubcommands().size() > 0;
      String what = option ? "unknown option" : command ? "unknown command" : "unexpected argument";
      List<String> suggestions = unmatched.getSuggestions().stream()
          .filter(candidate -> !candidate.isBlank())
          .filter(candidate -> close(word, candidate))
          .distinct()
          .limit(2)
          .toList();
      String line = what + " '" + word + "'";
      if (!suggestions.isEmpty()) {
        line += "; did you mean "
            + suggestions.stream()
                .map(candidate -> "'" + candidate + "'")
                .collect(Collectors.joining(" or "))
            + "?";
      }
      return line;
    }
    return ex.getMessage();
  }

  /**
   * Whether {@code candidate} is a plausible slip for {@code word}: at most half its letters
   * different (edit distance), so a word far from every command gets no guess at all.
   */
  static boolean close(String word, String candidate) {
    return editDistance(word, candidate) <= Math.max(2, word.length() / 2);
  }

  /** Levenshtein's distance: the fewest insertions, deletions and substitutions from a to b. */
  private static int editDistance(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        int substitute = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        row[j] = Math.min(substitute, Math.min(above, row[j - 1]) + 1);
        diagonal = above;
      }
    }
    return row[b.length()];
  }

  private static void report(
      CommandLine cmd, ParseResult parsed, ExitCode code, String message, Throwable ex) {
    report(
        cmd.getCommandSpec().qualifiedName(),
        cmd.getCommandSpec().name(),
        verbosity(parsed),
        asksForJson(parsed),
        code,
        message,
        ex,
        cmd.getOut(),
        cmd.getErr());
  }

  /**
   * Reports {@code ex}, the failure of the command {@code command} ({@code noneops status}) run
   * without the command line built, exactly as {@link #handleExecutionException} reports it for
   * that command without {@code -v}: the one line on {@code err} and, with {@code json}, the
   * error document on {@code out}.
   *
   * @return the exit code it maps to
   */
  public int reportFailureOf(
      String command, boolean json, Throwable ex, PrintWriter out, PrintWriter err) {
    ExitCode code = exitCodeOf(ex);
    String name = command.substring(command.lastIndexOf(' ') + 1);
    report(command, name, 0, json, code, oneLine(ex) + remedy(ex), ex, out, err);
    return code.code();
  }

  private static void report(
      String qualifiedName,
      String name,
      int verbosity,
      boolean json,
      ExitCode code,
      String message,
      Throwable ex,
      PrintWriter out,
      PrintWriter err) {
    err.println(qualifiedName + ": " + message);
    if (verbosity >= 1) {
      failedAt(ex).ifPresent(at -> err.println("  at:        " + at));
      causes(ex).forEach(c -> err.println("  caused by: " + c));
    }
    if (verbosity >= 2) {
      StringWriter trace = new StringWriter();
      ex.printStackTrace(new PrintWriter(trace));
      err.print(trace);
    }
    err.flush();
    if (json) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("exitCode", code.code());
      error.put("kind", code.name());
      error.put("message", message);
      failedAt(ex).ifPresent(at -> error.put("failedAt", at));
      error.put("causes", violations(ex).<List<?>>map(v -> v).orElseGet(() -> causes(ex)));
      Json.print(out, name, Map.of("ok", false, "error", error));
    }
  }

  /**
   * The violations of an invalid configuration, when that is the failure, each as {@code {path,
   * reason}}: a script reads them as a list rather than out of the joined message.
   */
  private static Optional<List<Map<String, String>>> violations(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InvalidConfigException invalid) {
        List<Map<String, String>> list = new ArrayList<>();
        for (InvalidConfigException.ConfigViolation v : invalid.violations()) {
          Map<String, String> one = new LinkedHashMap<>();
          one.put("path", v.path());
          one.put("reason", v.reason());
          list.add(one);
        }
        return Optional.of(list);
      }
    }
    return Optional.empty();
  }

  /**
   * The failure as one line, with line breaks folded into {@code "; "}: a node's failure as its
   * operator message (where it failed and what went wrong; the causes are for {@code -v}), any
   * other failure as its message followed by the distinct messages of its causes.
   */
  static String oneLine(Throwable ex) {
    if (ex instanceof NoneopsException failure) {
      return fold(failure.operatorMessage());
    }
    List<String> parts = new ArrayList<>();
    for (Throwable t = ex; t != null; t = t.getCause()) {
      String m = fold(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
      if (parts.stream().noneMatch(p -> p.contains(m))) {
        parts.add(m);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return String.join(": ", parts);
  }

  private static String fold(String message) {
    return message.strip().replaceAll("\\s*\\R\\s*-?\\s*", "; ").replace(":;", ":");
  }

  private static Optional<String> failedAt(Throwable ex) {
    return ex instanceof NoneopsException failure ? failure.failedAt() : Optional.empty();
  }

  /** Every cause below {@code ex}, outermost first, each as {@code Type: message}. */
  private static List<String> causes(Throwable ex) {
    List<String> causes = new ArrayList<>();
    for (Throwable t = ex.getCause(); t != null && causes.size() < 20; t = t.getCause()) {
      causes.add(
          t.getClass().getSimpleName() + ": " + fold(t.getMessage() == null ? "" : t.getMessage()));
      if (t.getCause() == t) {
        break;
      }
    }
    return causes;
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
