package dev.noneops.demo;

import com.sun.security.auth.module.UnixSystem;
import dev.noneops.cli.ErrorReporter;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.wiring.StdinConfirmation;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The entry point of {@code bin/noneops demo}: tells the lifecycle story of {@link LifecycleDemo}
 * and exits with its code. Core's log (warnings and up) goes to a file of its own, named once at
 * the end of the story, so that the terminal carries the story only.
 */
public final class DemoMain {
  private static final String LOG_FILE = "org.slf4j.simpleLogger.logFile";

  private DemoMain() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String... args) {
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    return commandLine().execute(args);
  }

  /**
   * The demo's command line over the real process: its story, and whether it runs as root. Core's
   * log goes to {@link #coreLog() a file}.
   */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new DemoCommand(
        new LifecycleDemo(),
        new TryItOnASandbox(),
        () -> new UnixSystem().getUid() == 0,
        new StdinConfirmation(),
        coreLog()));
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

  /**
   * The file core's log goes to: the one {@value #LOG_FILE} names, else a new file in the
   * temporary directory, which that property is then set to (before slf4j-simple starts, which
   * reads it once). Empty when the property names a standard stream.
   */
  static Optional<Path> coreLog() {
    String named = System.getProperty(LOG_FILE);
    if (named != null) {
      return named.equals("System.err") || named.equals("System.out")
          ? Optional.empty()
          : Optional.of(Path.of(named));
    }
    try {
      Path file = Files.createTempFile("noneops-demo-", ".log");
      System.setProperty(LOG_FILE, file.toString());
      return Optional.of(file);
    } catch (IOException e) {
      System.setProperty(LOG_FILE, "System.err");
      return Optional.empty();
    }
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
