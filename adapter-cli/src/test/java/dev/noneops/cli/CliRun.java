package dev.noneops.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the CLI in-process, built for its arguments as {@code Main} builds it: its exit code, stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(CliEnvironment environment, String... args) {
    CommandLine cli = NoneopsCli.commandLine(environment, args);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
