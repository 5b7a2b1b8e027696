package dev.noneops.cli;

import dev.noneops.core.layout.NodeConstants;
import java.util.Optional;

/**
 * The read-only inspections the agent's daemon can answer for the CLI ({@link DaemonAnswers}):
 * {@code status} and {@code allocation-launch-check}, by the command name an operator types.
 */
enum Inspection {
  STATUS("status"),
  LAUNCH_CHECK(NodeConstants.LAUNCH_CHECK_COMMAND);

  private final String command;

  Inspection(String command) {
    this.command = command;
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
