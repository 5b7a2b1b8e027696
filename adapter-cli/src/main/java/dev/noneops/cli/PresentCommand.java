package dev.noneops.cli;

import picocli.CommandLine.Command;

/**
 * {@code noneops present}: whether this host has any trace of a node (the layout directory or a
 * unit carrying the marker), which decides whether a reset runs the node's teardown. Works after
 * the applied config is gone.
 */
@Command(name = "present", description = {
    "Report whether the host has any trace of a node (the layout directory or an agent-owned unit).",
    "Exits 0 when present, 1 when not."})
public final class PresentCommand extends CliCommand {

  /** The JSON document of {@code present --json}. */
  public record PresentReport(boolean present) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      boolean present = ctx.teardown().present();
      if (json()) {
        printJson(new PresentReport(present));
      } else {
        out().println(present ? "present" : "absent");
      }
      return present ? ExitCode.OK : ExitCode.FAILURE;
    }
  }
}
