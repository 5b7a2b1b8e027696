package dev.noneops.testkit.sandbox;

import java.util.List;

/**
 * How a command ended: its exit code ({@code -1} when it was killed at its timeout) and what it
 * printed.
 */
public record CommandResult(
    List<String> command, int exitCode, String stdout, String stderr, boolean timedOut) {
  public CommandResult {
    command = List.copyOf(command);
  }

  public boolean succeeded() {
    return exitCode == 0 && !timedOut;
  }

  /** Returns this result if the command succeeded, else throws naming the command and its output. */
  public CommandResult orThrow() {
    if (!succeeded()) {
      throw new IllegalStateException(describe());
    }
    return this;
  }

  public String describe() {
    return String.join(" ", command)
        + (timedOut ? " timed out" : " exited " + exitCode)
        + (stdout.isBlank() ? "" : "\nstdout: " + stdout.strip())
        + (stderr.isBlank() ? "" : "\nstderr: " + stderr.strip());
  }
}
