package dev.noneops.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the CLI in-process: its exit code, stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

  /** An environment for commands that must not touch a host: connecting fails the test. */
  static final CliEnvironment NO_HOST = new CliEnvironment(
      () -> {
        throw new AssertionError("this command must not touch a host");
      },
      () -> false,
      "1.2.3-test");

  /** {@code args} on the command line {@code Main} builds for them. */
  static CliRun of(CliEnvironment environment, String... args) {
    return on(NoneopsCli.commandLine(environment, args), args);
  }

  /** {@code args} on a given command line. */
  static CliRun on(CommandLine cli, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
