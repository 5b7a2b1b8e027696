package dev.noneops.cli;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.core.node.LockWait;
import dev.noneops.ports.events.NodeEvent;
import java.io.IOException;
import java.io.OutputStream;
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
 * connection. Any other command line, and an inspection that fails or has anything to say on
 * stderr (an event, a wait for the node lock), is left to the command line, which runs it as
 * before and reports as it always does; nothing has been printed then.
 */
public final class DirectInspection {
  private DirectInspection() {}

  /**
   * Answers {@code args} from this process over {@code environment}'s host: writes the command's
   * stdout to {@code stdout} and returns its exit code; empty, having written nothing, when they
   * are not a plain inspection or the inspection did not end in a report.
   */
  public static OptionalInt run(
      List<String> args, CliEnvironment environment, OutputStream stdout) {
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
      return OptionalInt.empty();
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

  /** {@link #run(List, CliEnvironment, OutputStream)}; {@code stderr} is not written. */
  public static OptionalInt run(
      List<String> args, CliEnvironment environment, OutputStream stdout, OutputStream stderr) {
    return run(args, environment, stdout);
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
