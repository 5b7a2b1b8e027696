package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.CliEnvironment;
import dev.noneops.cli.DirectInspection;
import dev.noneops.cli.NoneopsCli;
import dev.noneops.ports.commands.Command;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code status} and {@code allocation-launch-check} answered in this process without building
 * the command line ({@link DirectInspection}) print exactly what the command prints and exit
 * with its code, on a node that runs, one whose stack is stopped, and one never installed; and
 * when the inspection fails, report it once, as the command line would, without running it again.
 */
class DirectInspectionTest {

  private static final List<List<String>> PLAIN = List.of(
      List.of("status"),
      List.of("status", "--direct"),
      List.of("status", "--json"),
      List.of("--json", "status", "--direct"),
      List.of("allocation-launch-check"),
      List.of("allocation-launch-check", "--direct", "--json"));

  @Test
  void answersAsTheCommandLineDoesOnARunningNode() {
    SimCli cli = installed();
    sameAnswers(cli);
  }

  @Test
  void answersAsTheCommandLineDoesOnAStoppedNode() {
    SimCli cli = installed();
    assertThat(cli.run("stop").exitCode()).isZero();
    sameAnswers(cli);
  }

  @Test
  void answersAsTheCommandLineDoesWhereNothingIsInstalled() {
    sameAnswers(new SimCli(SimulatedHost.create()));
  }

  @Test
  void aFailedInspectionIsReportedAsTheCommandLineReportsItAfterOneAttempt() {
    for (List<String> args : PLAIN) {
      AtomicInteger attempts = new AtomicInteger();
      CliEnvironment unreachable = new CliEnvironment(
          () -> {
            attempts.incrementAndGet();
            throw new IOException("connect to the system bus: connection refused");
          },
          () -> true,
          "0.0.0-test");
      CommandLine commandLine = NoneopsCli.commandLine(unreachable, args.toArray(String[]::new));
      StringWriter expectedOut = new StringWriter();
      StringWriter expectedErr = new StringWriter();
      commandLine.setOut(new PrintWriter(expectedOut, true));
      commandLine.setErr(new PrintWriter(expectedErr, true));
      int expectedCode = commandLine.execute(args.toArray(String[]::new));
      attempts.set(0);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();

      OptionalInt code = DirectInspection.run(args, unreachable, out, err);

      assertThat(expectedCode).as("%s", args).isNotZero();
      assertThat(code).as("%s", args).hasValue(expectedCode);
      assertThat(attempts).as("connections tried for %s", args).hasValue(1);
      assertThat(out.toString(StandardCharsets.UTF_8))
          .as("%s", args)
          .isEqualTo(expectedOut.toString());
      assertThat(err.toString(StandardCharsets.UTF_8))
          .as("%s", args)
          .isEqualTo(expectedErr.toString())
          .contains("connection refused");
    }
  }

  private static SimCli installed() {
    SimCli cli = new SimCli(SimulatedHost.create());
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.host()
        .commands()
        .register(
            List.of("ctr"),
            (Command c) -> c.argv().contains("tasks")
                ? CommandOutcome.ok("TASK PID STATUS\nsandbox1 10 RUNNING\n")
                : CommandOutcome.ok("sandbox1\n"));
    return cli;
  }

  private static void sameAnswers(SimCli cli) {
    for (List<String> args : PLAIN) {
      Run expected = cli.run(args.toArray(String[]::new));
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      OptionalInt code =
          DirectInspection.run(args, cli.environment(), out, OutputStream.nullOutputStream());

      assertThat(code).as("%s", args).hasValue(expected.exitCode());
      assertThat(out.toString(StandardCharsets.UTF_8)).as("%s", args).isEqualTo(expected.out());
    }
  }
}
