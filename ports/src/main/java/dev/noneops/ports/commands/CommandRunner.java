package dev.noneops.ports.commands;

import java.io.IOException;

/**
 * Runs host commands. A program that cannot be started is an {@link IOException} (ENOENT,
 * EACCES); a program that runs and fails is a {@link CommandResult} with its exit code.
 */
public interface CommandRunner {
  CommandResult run(Command command) throws IOException;
}
