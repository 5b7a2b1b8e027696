package dev.noneops.core.node.internal.task;

import dev.noneops.core.node.CommandFailedException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.IOException;
import java.time.Duration;

/**
 * The stack's own commands a node runs ({@code nvidia-ctk}, {@code ctr}), each failure a
 * {@link CommandFailedException} saying why it ran.
 */
public final class HostCommands {
  private final CommandRunner runner;
  private final Duration timeout;

  public HostCommands(CommandRunner runner, Duration timeout) {
    this.runner = runner;
    this.timeout = timeout;
  }

  /** Runs and requires success. */
  public CommandResult require(String purpose, String... argv) throws IOException {
    return require(purpose, timeout, argv);
  }

  public CommandResult require(String purpose, Duration timeout, String... argv)
      throws IOException {
    Command command = Command.of(timeout, argv);
    CommandResult result = runner.run(command);
    if (!result.succeeded()) {
      throw new CommandFailedException(purpose, command, result);
    }
    return result;
  }
}
