package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@link CommandRunner} contract. A subclass supplies the port and the argv of a few programs:
 * one that prints, one that fails, one that runs for a while.
 */
public abstract class CommandRunnerContract {
  private static final Duration GENEROUS = Duration.ofSeconds(30);

  protected abstract CommandRunner runner();

  /** A command that prints exactly {@code text} on stdout and exits 0 (e.g. {@code printf %s text}). */
  protected abstract List<String> printing(String text);

  /** A command that prints {@code text} on stderr and exits with {@code code}. */
  protected abstract List<String> failing(int code, String text);

  /** A command that runs for {@code duration} and then exits 0 (e.g. {@code sleep 5}). */
  protected abstract List<String> runningFor(Duration duration);

  /** A program path that does not exist. */
  protected String missingProgram() {
    return "/nonexistent/noneops-contract-program";
  }

  private CommandResult run(List<String> argv, Duration timeout, int cap) throws IOException {
    return runner().run(new Command(argv, Map.of(), timeout, cap));
  }

  @Test
  void aSucceedingCommandReportsItsOutput() throws IOException {
    CommandResult r = run(printing("hello contract"), GENEROUS, Command.DEFAULT_MAX_OUTPUT);
    assertThat(r.exitCode()).isZero();
    assertThat(r.succeeded()).isTrue();
    assertThat(r.stdout()).isEqualTo("hello contract");
    assertThat(r.timedOut()).isFalse();
  }

  @Test
  void aFailingCommandIsAResultNotAnException() throws IOException {
    CommandResult r = run(failing(3, "went wrong"), GENEROUS, Command.DEFAULT_MAX_OUTPUT);
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.stderr()).contains("went wrong");
  }

  @Test
  void aMissingProgramFailsWithEnoent() {
    assertThatThrownBy(
            () -> run(List.of(missingProgram(), "arg"), GENEROUS, Command.DEFAULT_MAX_OUTPUT))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
  }

  @Test
  void aCommandOutlivingItsTimeoutIsKilledAndReportedTimedOut() throws IOException {
    CommandResult r =
        run(runningFor(Duration.ofSeconds(20)), Duration.ofMillis(300), Command.DEFAULT_MAX_OUTPUT);
    assertThat(r.timedOut()).isTrue();
    assertThat(r.succeeded()).isFalse();
  }

  @Test
  void outputIsCutAtTheCap() throws IOException {
    CommandResult r = run(printing("0123456789abcdefghij"), GENEROUS, 8);
    assertThat(r.stdout()).isEqualTo("01234567");
  }
}
