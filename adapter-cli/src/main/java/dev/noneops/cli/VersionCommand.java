package dev.noneops.cli;

import picocli.CommandLine.Command;

/** {@code noneops version}: this build's version and the Java runtime it runs on. Touches no host. */
@Command(
    name = "version",
    header = "Print the version of this noneops build",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops version"})
public final class VersionCommand extends CliCommand {

  /** The JSON document of {@code version --json}. */
  public record VersionReport(String version, String javaVersion) {}

  @Override
  protected ExitCode execute() {
    VersionReport report =
        new VersionReport(environment().buildVersion(), Runtime.version().toString());
    if (json()) {
      printJson(report);
    } else {
      out().println("noneops " + report.version() + " (Java " + report.javaVersion() + ")");
    }
    return ExitCode.OK;
  }
}
