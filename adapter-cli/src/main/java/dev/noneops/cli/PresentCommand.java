package dev.noneops.cli;

import picocli.CommandLine.Command;

/**
 * {@code noneops present}: whether this node installed itself on the host (a marker-bearing unit,
 * its ownership record, the active-version link, a version with its manifest), which decides
 * whether a reset runs the node's teardown. Works after the applied config is gone.
 */
@Command(
    name = "present",
    header = "Report whether this node is installed on the host",
    description =
        "Evidence of the node: its units, ownership record, applied configuration or versions. Exits 0 when present, 8 when not.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops present && echo installed"})
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
      return present ? ExitCode.OK : ExitCode.ABSENT;
    }
  }
}
