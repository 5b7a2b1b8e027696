package dev.noneops.testkit.commands;

import java.time.Duration;
import java.util.Objects;

/**
 * How a simulated program ended and how long it ran (virtual time; a run longer than the
 * command's timeout is killed and reported as timed out).
 */
public record CommandOutcome(int exitCode, String stdout, String stderr, Duration runtime) {
  public CommandOutcome {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(runtime, "runtime");
    if (runtime.isNegative()) {
      throw new IllegalArgumentException("runtime must not be negative: " + runtime);
    }
  }

  public static CommandOutcome ok(String stdout) {
    return new CommandOutcome(0, stdout, "", Duration.ZERO);
  }

  public static CommandOutcome ok() {
    return ok("");
  }

  public static CommandOutcome failed(int exitCode, String stderr) {
    return new CommandOutcome(exitCode, "", stderr, Duration.ZERO);
  }

  /** The same outcome after running for {@code runtime}. */
  public CommandOutcome after(Duration runtime) {
    return new CommandOutcome(exitCode, stdout, stderr, runtime);
  }
}
