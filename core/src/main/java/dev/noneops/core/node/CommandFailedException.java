package dev.noneops.core.node;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;

/** A host command the node runs failed. */
public final class CommandFailedException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final Command command;
  private final CommandResult result;

  public CommandFailedException(String purpose, Command command, CommandResult result) {
    super(purpose + ": `" + command + "` "
        + (result.timedOut() ? "timed out" : "exited " + result.exitCode())
        + (result.stderr().isBlank() ? "" : ": " + result.stderr().strip()));
    this.command = command;
    this.result = result;
  }

  public Command command() {
    return command;
  }

  public CommandResult result() {
    return result;
  }
}
