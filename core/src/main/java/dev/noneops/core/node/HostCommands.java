package dev.noneops.core.node;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.IOException;
import java.time.Duration;

/** The host commands a node runs, each failure a {@link CommandFailedException} saying why it ran. */
final class HostCommands {
  private final CommandRunner runner;
  private final Duration timeout;

  HostCommands(CommandRunner runner, Duration timeout) {
    this.runner = runner;
    this.timeout = timeout;
  }

  /** Runs and requires success. */
  CommandResult require(String purpose, String... argv) throws IOException {
    return require(purpose, timeout, argv);
  }

  CommandResult require(String purpose, Duration timeout, String... argv) throws IOException {
    Command command = Command.of(timeout, argv);
    CommandResult result = runner.run(command);
    if (!result.succeeded()) {
      throw new CommandFailedException(purpose, command, result);
    }
    return result;
  }

  /** Runs and reports whether it succeeded (a probe such as {@code ip link show}). */
  boolean succeeds(String... argv) throws IOException {
    return runner.run(Command.of(timeout, argv)).succeeded();
  }

  /** The command for {@code argv} with this runner's timeout. */
  Command command(String... argv) {
    return Command.of(timeout, argv);
  }

  CommandResult run(Command command) throws IOException {
    return runner.run(command);
  }
}
