package dev.noneops.cli;

import java.util.Objects;

/**
 * A failure the CLI reports as one line with a chosen exit code: bad input the command itself
 * detected (a missing file, not root, a check that found problems).
 */
public class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ExitCode exitCode;

  public CliException(ExitCode exitCode, String message) {
    this(exitCode, message, null);
  }

  public CliException(ExitCode exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
  }

  public ExitCode exitCode() {
    return exitCode;
  }
}
