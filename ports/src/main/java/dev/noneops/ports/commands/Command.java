package dev.noneops.ports.commands;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A command to execute: argv (no shell), extra environment, a timeout after which it is killed,
 * and a cap on how much of its output is kept.
 */
public record Command(
    List<String> argv, Map<String, String> env, Duration timeout, int maxOutputBytes) {

  /** Output kept per stream unless a command asks for another cap. */
  public static final int DEFAULT_MAX_OUTPUT = 1 << 20;

  public Command {
    argv = List.copyOf(argv);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least a program");
    }
    env = Map.copyOf(env);
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    if (maxOutputBytes <= 0) {
      throw new IllegalArgumentException("maxOutputBytes must be positive: " + maxOutputBytes);
    }
  }

  /** A command with no extra environment, the given timeout and the default output cap. */
  public static Command of(Duration timeout, String... argv) {
    return new Command(List.of(argv), Map.of(), timeout, DEFAULT_MAX_OUTPUT);
  }

  @Override
  public String toString() {
    return String.join(" ", argv);
  }
}
