package dev.noneops.cli;

import picocli.CommandLine.Option;

/**
 * {@code --yes}: go on without asking. A command that removes or boots something asks on a
 * terminal first; on a stdin that is not a terminal it refuses without {@code --yes} (exit 2).
 */
public final class YesOption {
  @Option(
      names = {"-y", "--yes"},
      description = "Do not ask for confirmation (needed when stdin is not a terminal).")
  boolean yes;

  public boolean given() {
    return yes;
  }
}
