package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bin/noneops demo} runs {@link DemoMain}: its options and exit codes. */
class DemoMainTest {

  @Test
  void simulatedTellsTheStoryOnTheSimulatedHostAndExitsZero() {
    StringWriter out = new StringWriter();
    CommandLine cli = DemoMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(new StringWriter(), true));

    int code = cli.execute("--simulated");

    assertThat(code).as(out.toString()).isEqualTo(ExitCode.OK.code());
    assertThat(out.toString())
        .contains("SIMULATED host (--simulated was given)")
        .contains("SUCCESS: ");
  }

  @Test
  void anUnknownOptionIsAUsageErrorThatTellsNoStory() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = DemoMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));

    int code = cli.execute("--simulate");

    assertThat(code).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString())
        .isEqualTo("noneops demo: unknown option '--simulate'; did you mean '--simulated'?\n"
            + "Try 'noneops demo --help' for the options and exit codes.\n");
    assertThat(out.toString()).isEmpty();
  }
}
