package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ErrorReporter;
import dev.noneops.cli.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code noneops demo} boots a sandbox only when told to (on a terminal, or with {@code --yes}),
 * and stops, cleaning up, when the pipe its story goes to is closed.
 */
class DemoAsksAndStopsTest {
  private final AtomicInteger sandboxesOpened = new AtomicInteger();
  private final SandboxShell shell = (out, stop, options) -> {
    sandboxesOpened.incrementAndGet();
    return ExitCode.OK;
  };
  private final DemoRunner story = (out, err, options) -> ExitCode.OK;

  @Test
  void asRootTheShellOnAStdinThatIsNoTerminalRefusesWithoutYesAndBootsNothing() {
    StringWriter err = new StringWriter();

    int code = demo(err, "--shell");

    assertThat(code).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString().strip().lines()).hasSize(1);
    assertThat(err.toString()).contains("--yes");
    assertThat(sandboxesOpened).hasValue(0);
  }

  @Test
  void withYesTheShellBootsItsSandboxWithoutAsking() {
    StringWriter err = new StringWriter();

    int code = demo(err, "--shell", "--yes");

    assertThat(code).as(err.toString()).isZero();
    assertThat(sandboxesOpened).hasValue(1);
  }

  @Test
  void theStoryStopsWhenItsOutputIsClosedAndSaysSoOnStderr() throws Exception {
    StringWriter err = new StringWriter();
    AtomicInteger lines = new AtomicInteger();
    Writer closedAfterTheFirstLines = new Writer() {
      @Override
      public void write(char[] buf, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
          if (buf[i] == '\n' && lines.incrementAndGet() > 8) {
            throw new IOException("Broken pipe");
          }
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };

    ExitCode code = new LifecycleDemo()
        .run(
            new PrintWriter(closedAfterTheFirstLines, true),
            new PrintWriter(err, true),
            new DemoRunner.Options(true, false));

    assertThat(code).isNotEqualTo(ExitCode.OK);
    assertThat(err.toString()).contains("output was closed").contains("stopping");
  }

  private int demo(StringWriter err, String... args) {
    CommandLine cli = new CommandLine(new DemoCommand(story, shell, () -> true));
    ErrorReporter errors = new ErrorReporter();
    cli.setExecutionExceptionHandler(errors);
    cli.setParameterExceptionHandler(errors);
    cli.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE.code());
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }
}
