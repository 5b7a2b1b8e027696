package dev.noneops.cli;

import java.io.PrintWriter;
import java.util.Optional;

/**
 * Asks the operator to confirm a command that removes something, on the terminal stdin is. A
 * command with {@code --yes} never asks; without it, on a stdin that is not a terminal (a
 * script, a pipe), there is nobody to ask and the command refuses.
 */
@FunctionalInterface
public interface Confirmation {
  /** Never a terminal: nobody to ask (a pipe, tests). */
  Confirmation NONE = (err, question) -> Optional.empty();

  /**
   * Prints {@code question} on {@code err} and reads the answer: true for yes, false for anything
   * else (end of input too); empty, with nothing printed, when stdin is not a terminal.
   */
  Optional<Boolean> ask(PrintWriter err, String question);
}
