package dev.noneops.cli;

import dev.noneops.cli.AnswerProtocol.Answer;
import dev.noneops.cli.AnswerProtocol.Request;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * The CLI's fast path for {@code status} and {@code allocation-launch-check}: asked before the
 * command line is even built, the running agent's daemon answers them over its socket with the
 * output the command would print ({@link InspectionReport}), which costs the CLI neither its
 * D-Bus connection nor its JSON writer nor most of its start-up. Taken only for a command line
 * the daemon can honour — the command with nothing but {@code --json} and {@code -v} — never
 * with {@value DirectOption#NAME}; on any failure (no daemon, no permission, another build, no
 * answer within the inspection's deadline, 2 s for {@code status}, a malformed answer) the caller
 * runs the command itself, as if nothing was asked.
 * Loads no picocli, D-Bus, Jackson or host adapter class.
 */
public final class DaemonAnswers {
  private DaemonAnswers() {}

  /**
   * Answers {@code args} through the daemon's {@code socket}: writes the command's stdout to
   * {@code stdout} and returns its exit code; empty (nothing written, the reason passed to {@code
   * notAnswered}) when the command line is not one for the daemon or the daemon did not answer.
   */
  public static OptionalInt answer(
      List<String> args,
      String build,
      Path socket,
      OutputStream stdout,
      Consumer<String> notAnswered) {
    Optional<Request> request = request(args, build);
    if (request.isEmpty()) {
      return OptionalInt.empty();
    }
    Answer answer;
    try {
      answer = AnswerClient.ask(socket, request.get(), request.get().what().deadline());
    } catch (IOException | RuntimeException e) {
      notAnswered.accept(request.get().what().command() + " not answered by the daemon at " + socket
          + " (" + e.getMessage() + "); inspecting the host directly");
      return OptionalInt.empty();
    }
    try {
      stdout.write(answer.stdout());
      stdout.flush();
    } catch (IOException e) {
      return OptionalInt.of(ExitCode.FAILURE.code());
    }
    return OptionalInt.of(answer.exitCode());
  }

  /**
   * The request {@code args} make: one of the inspections, with {@code --json} (before or after
   * it) and {@code -v}, {@code -vv}, {@code --verbose} and nothing else.
   */
  static Optional<Request> request(List<String> args, String build) {
    Optional<Inspection> what = Optional.empty();
    boolean json = false;
    for (String arg : args) {
      if (arg.equals("--json") && !json) {
        json = true;
      } else if (arg.equals("--verbose") || arg.matches("-v+")) {
        continue;
      } else if (what.isEmpty() && Inspection.named(arg).isPresent()) {
        what = Inspection.named(arg);
      } else {
        return Optional.empty();
      }
    }
    try {
      boolean asJson = json;
      return what.map(w -> new Request(build, w, asJson));
    } catch (IllegalArgumentException unusableBuild) {
      return Optional.empty();
    }
  }
}
