package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
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

  @Test
  void aDownloadRateNeedsTheShell() {
    StringWriter err = new StringWriter();
    CommandLine cli = DemoMain.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));

    int code = cli.execute("--download-rate", "2M");

    assertThat(code).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).startsWith("noneops demo: --download-rate needs --shell");
  }

  @Test
  void aDownloadRateIsBytesASecondWithABinarySuffixOrUnlimited() {
    assertThat(DownloadRate.parse("2M")).isEqualTo(2L * 1024 * 1024);
    assertThat(DownloadRate.parse("512k")).isEqualTo(512L * 1024);
    assertThat(DownloadRate.parse("1000")).isEqualTo(1000L);
    assertThat(DownloadRate.parse("unlimited")).isEqualTo(DownloadRate.UNLIMITED);
    assertThat(DownloadRate.describe(2L * 1024 * 1024)).isEqualTo("2.0 MiB/s");
  }

  @Test
  void aMalformedDownloadRateIsAUsageError() {
    StringWriter err = new StringWriter();
    CommandLine cli = DemoMain.commandLine();
    cli.setErr(new PrintWriter(err, true));

    int code = cli.execute("--shell", "--download-rate", "fast");

    assertThat(code).isEqualTo(ExitCode.USAGE.code());
    assertThat(err.toString()).contains("'fast' is not a rate");
  }

  @Test
  void aShellCommandLineQuotesOnlyTheWordsThatNeedIt() {
    assertThat(TryItOnASandbox.shellWords(List.of("env", "A=b c", "it's", "-jar")))
        .isEqualTo("env 'A=b c' 'it'\\''s' -jar");
  }
}
