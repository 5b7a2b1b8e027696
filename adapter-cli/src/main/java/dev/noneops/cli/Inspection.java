package dev.noneops.cli;

import dev.noneops.core.layout.NodeConstants;
import java.time.Duration;
import java.util.Optional;

/**
 * The read-only inspections the agent's daemon can answer for the CLI ({@link DaemonAnswers}):
 * {@code status} and {@code allocation-launch-check}, by the command name an operator types.
 */
enum Inspection {
  STATUS("status", Duration.ofSeconds(2)),
  /**
   * Longer: a file of the active version whose stamps changed since its manifest is hashed, as
   * the command itself would, and waiting costs less than the command hashing it again.
   */
  LAUNCH_CHECK(NodeConstants.LAUNCH_CHECK_COMMAND, Duration.ofSeconds(10));

  private final String command;
  private final Duration deadline;

  Inspection(String command, Duration deadline) {
    this.command = command;
    this.deadline = deadline;
  }

  /** How long the CLI waits for the daemon's answer before it inspects the host itself. */
  Duration deadline() {
    return deadline;
  }

  /** The command's name, as typed and as its JSON document's {@code command} field names it. */
  String command() {
    return command;
  }

  static Optional<Inspection> named(String command) {
    for (Inspection i : values()) {
      if (i.command.equals(command)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }
}
