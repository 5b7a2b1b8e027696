package dev.noneops.demo;

import com.sun.security.auth.module.UnixSystem;
import dev.noneops.cli.ErrorReporter;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.wiring.StdinConfirmation;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * The entry point of {@code bin/noneops demo}: tells the lifecycle story of {@link LifecycleDemo}
 * and exits with its code. Logging goes to stderr at warnings, as the CLI's does.
 */
public final class DemoMain {
  private DemoMain() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String... args) {
    setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    return commandLine().execute(args);
  }

  /** The demo's command line over the real process: its story, and whether it runs as root. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new DemoCommand(
        new LifecycleDemo(),
        new TryItOnASandbox(),
        () -> new UnixSystem().getUid() == 0,
        new StdinConfirmation()));
    // stdout straight over file descriptor 1, not System.out, whose PrintStream swallows the
    // EPIPE of a closed pipe: the story sees it (checkError) and stops
    cli.setOut(new PrintWriter(
        new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8),
        true));
    ErrorReporter errors = new ErrorReporter();
    cli.setExecutionExceptionHandler(errors);
    cli.setParameterExceptionHandler(errors);
    cli.getCommandSpec().exitCodeOnInvalidInput(ExitCode.USAGE.code());
    cli.getCommandSpec().exitCodeOnExecutionException(ExitCode.FAILURE.code());
    return cli;
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
