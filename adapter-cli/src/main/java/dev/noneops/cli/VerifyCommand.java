package dev.noneops.cli;

import dev.noneops.core.install.VersionVerifier;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.upgrade.VersionPruner;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

  /** One version's verdict. */
  public record VersionVerdict(
      String version, String state, boolean verified, List<String> problems) {}

  /** The JSON document of {@code verify --json}. */
  public record VerifyReport(boolean ok, List<VersionVerdict> versions) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      List<VersionVerdict> verdicts = verify(ctx);
      boolean ok = verdicts.stream().allMatch(VersionVerdict::verified);
      if (json()) {
        printJson(new VerifyReport(ok, verdicts));
      } else if (verdicts.isEmpty()) {
        out().println("no version is installed");
      } else {
        verdicts.forEach(this::printText);
      }
      return ok ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  /** The verdict on each version asked for, or on every installed one. */
  private List<VersionVerdict> verify(NodeContext ctx) throws IOException {
    Layout layout = ctx.session().layout();
    HostFiles files = ctx.ports().files();
    VersionVerifier verifier = new VersionVerifier(files, layout);
    List<String> targets = versions.isEmpty()
        ? new VersionPruner(
                files,
                ctx.ports().processes(),
                layout,
                ctx.session().paths(),
                ctx.teardown()::removeTree)
            .installedVersions()
        : versions;
    List<VersionVerdict> verdicts = new ArrayList<>();
    for (String v : targets) {
      if (!VersionNames.isSafe(v)) {
        throw new CliException(ExitCode.USAGE, "not a version name: '" + v + "'");
      }
      VersionVerifier.Verification result = verifier.verify(v);
      verdicts.add(
          new VersionVerdict(v, result.state().name(), result.verified(), result.problems()));
    }
    return verdicts;
  }

  private void printText(VersionVerdict v) {
    out()
        .println((v.verified() ? "ok      " : "PROBLEM ") + v.version() + " "
            + v.state().toLowerCase(Locale.ROOT));
    v.problems().forEach(p -> out().println("          " + p));
  }
}
