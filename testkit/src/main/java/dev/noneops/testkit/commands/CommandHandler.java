package dev.noneops.testkit.commands;

import dev.noneops.ports.commands.Command;
import java.io.IOException;

/** What a simulated program does when run: its effects on the simulated host and how it ends. */
@FunctionalInterface
public interface CommandHandler {
  CommandOutcome run(Command command) throws IOException;
}
