package dev.noneops.cli;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.core.node.LockWait;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.ports.events.NodeEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The command's own path of {@code status} and {@code allocation-launch-check} without building
 * the command line: where the agent's daemon did not answer ({@link DaemonAnswers}) or {@value
 * DirectOption#NAME} was given, a plain command line of an inspection (the command with nothing
 * but {@code --json}, before or after it, and {@value DirectOption#NAME} after it) is answered
 * here with what the command prints ({@link InspectionReport}) and its exit code. picocli's model
 * of even one command, built by reflection, costs a short command as much as its D-Bus
 * connection. An inspection that fails is reported here as the command line would report it,
 * once: a host that does not answer costs its timeout one time. Any other command line, and an
 * inspection that has anything to say on stderr (an event, a wait for the node lock) or finds the
 * node busy (the command line waits for it as long as it was told), is left to the command line,
 * which runs it as before and reports as it always does; nothing has been printed then.
 */
public final class DirectInspection {
  private DirectInspection() {}

  /**
   * Answers {@code args} from this process over {@code environment}'s host: writes the command's
   * stdout to {@code stdout} and returns its exit code; a failure is reported as the command
   * line reports it ({@link ErrorReporter#reportFailureOf}), its line on {@code stderr}, and not
   * tried again; empty, having written nothing, when they are not a plain inspection, or the
   * inspection had something to say on stderr on the way or found the node busy.
   */
  public static OptionalInt run(
      List<String> args, CliEnvironment environment, OutputStream stdout, OutputStream stderr) {
    Optional<Plain> plain = plain(args);
    if (plain.isEmpty()) {
      return OptionalInt.empty();
    }
    Silent progress = new Silent();
    InspectionReport report;
    try (NodeContext ctx = NodeContext.openToRead(environment, progress)
        .lockWait(new LockWait(Duration.ZERO, line -> progress.spoke = true))) {
      report = InspectionReport.of(
          plain.get().what(),
          plain.get().json(),
          ctx.node(Optional.empty(), Optional.empty()),
          ctx.ports(),
          ctx.session().paths());
    } catch (IOException | RuntimeException e) {
      if (progress.spoke || e instanceof NodeBusyException) {
        return OptionalInt.empty();
      }
      PrintWriter out = utf8(stdout);
      PrintWriter err = utf8(stderr);
      int code = new ErrorReporter()
          .reportFailureOf(
              "noneops " + plain.get().what().command(), plain.get().json(), e, out, err);
      out.flush();
      err.flush();
      return OptionalInt.of(code);
    }
    if (progress.spoke) {
      return OptionalInt.empty();
    }
    try {
      stdout.write(report.stdout().getBytes(StandardCharsets.UTF_8));
      stdout.flush();
    } catch (IOException e) {
      return OptionalInt.of(ExitCode.FAILURE.code());
    }
    return OptionalInt.of(report.exitCode().code());
  }

  private static PrintWriter utf8(OutputStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  /** An inspection's plain command line: which one, and whether as JSON. */
  record Plain(Inspection what, boolean json) {}

  /**
   * The inspection {@code args} name plainly: the command once, {@code --json} at most once
   * before or after it, {@value DirectOption#NAME} at most once after it, nothing else.
   */
  static Optional<Plain> plain(List<String> args) {
    Optional<Inspection> what = Optional.empty();
    boolean json = false;
    boolean direct = false;
    for (String arg : args) {
      if (arg.equals("--json") && !json) {
        json = true;
      } else if (arg.equals(DirectOption.NAME) && !direct && what.isPresent()) {
        direct = true;
      } else if (what.isEmpty() && Inspection.named(arg).isPresent()) {
        what = Inspection.named(arg);
      } else {
        return Optional.empty();
      }
    }
    boolean asJson = json;
    return what.map(w -> new Plain(w, asJson));
  }

  /** Progress that prints nothing and remembers whether there was anything to print. */
  private static final class Silent implements LiveProgress {
    private volatile boolean spoke;

    @Override
    public void onEvent(NodeEvent event) {
      spoke = true;
    }

    @Override
    public void close() {}
  }
}
