package dev.noneops.ports.commands;

import java.util.Objects;

/**
 * How a command ended.
 *
 * @param exitCode the exit status; 128+signal when killed by a signal; -1 when it timed out
 * @param stdout captured standard output, cut at the command's output cap
 * @param stderr captured standard error, cut likewise
 * @param timedOut whether the command was killed for exceeding its timeout
 */
public record CommandResult(int exitCode, String stdout, String stderr, boolean timedOut) {
  public CommandResult {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
  }

  public boolean succeeded() {
    return exitCode == 0 && !timedOut;
  }
}
