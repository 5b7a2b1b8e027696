package dev.noneops.cli;

import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.VerifyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code noneops verify}: installed files against their manifests (size, mode, SHA-256). */
@Command(
    name = "verify",
    header = "Check installed versions against their manifests",
    description =
        "Every file's size, mode and SHA-256. Without arguments every installed version is checked. Exits 7 when any differs.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops verify", "  noneops verify 1.31.4-a32ff1fd5181"})
public final class VerifyCommand extends CliCommand {
  @Parameters(
      paramLabel = "VERSION",
      arity = "0..*",
      description = "Versions to check (default: all installed).")
  List<String> versions = new ArrayList<>();

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      for (String v : versions) {
        if (!VersionNames.isSafe(v)) {
          throw new CliException(ExitCode.USAGE, "not a version name: '" + v + "'");
        }
      }
      VerifyReport report =
          ctx.node(Optional.empty(), Optional.empty()).inspect().verify(versions);
      if (json()) {
        printJson(report);
      } else if (report.versions().isEmpty()) {
        out().println("no version is installed");
      } else {
        report.versions().forEach(this::printText);
      }
      return report.ok() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  private void printText(VerifyReport.Verdict v) {
    out()
        .println((v.verified() ? "ok      " : "PROBLEM ") + v.version() + " "
            + v.state().toLowerCase(Locale.ROOT));
    v.problems().forEach(p -> out().println("          " + p));
  }
}
