package dev.noneops.cli;

import dev.noneops.core.install.VersionVerifier;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.upgrade.CorruptStateException;
import dev.noneops.core.upgrade.CurrentLink;
import dev.noneops.core.upgrade.InvalidCurrentLinkException;
import dev.noneops.core.upgrade.UpgradeJournal;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code noneops allocation-launch-check} ({@code LaunchCheckCommand}): the command kubelet's
 * allocation launch check runs. Exits 0 only when the stack is healthy — its units active,
 * {@code current} a complete and verified version, no upgrade in flight — and otherwise names
 * every problem (a {@code current} that is not a symlink into the layout, or a damaged journal,
 * is one of them).
 */
@Command(
    name = NodeConstants.LAUNCH_CHECK_COMMAND,
    header = "Exit 0 only when the node is healthy",
    description =
        "Healthy: the units active, 'current' a complete verified version, no upgrade in flight. Otherwise list every problem and exit 7. Run by kubelet's allocation launch check.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops allocation-launch-check", "  noneops --json allocation-launch-check"})
public final class LaunchCheckCommand extends CliCommand {

  /** The JSON document of {@code allocation-launch-check --json}. */
  public record LaunchCheckReport(boolean healthy, String version, List<String> problems) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      LaunchCheckReport report = check(ctx);
      if (json()) {
        printJson(report);
      } else if (report.healthy()) {
        out()
            .println(
                "healthy: version " + report.version() + ", units active, no upgrade in flight");
      } else {
        out().println("unhealthy:");
        report.problems().forEach(p -> out().println("  - " + p));
      }
      return report.healthy() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  /** Every problem of the node: its active version, an upgrade in flight, its units. */
  private static LaunchCheckReport check(NodeContext ctx) throws IOException {
    List<String> problems = new ArrayList<>();
    String version = activeVersion(ctx, problems);
    Layout layout = ctx.session().layout();
    try {
      new UpgradeJournal(ctx.ports().files(), layout)
          .read()
          .ifPresent(j -> problems.add("an upgrade from " + j.previousVersion() + " to "
              + j.targetVersion() + " is in flight (journal " + layout.journal() + ")"));
    } catch (CorruptStateException e) {
      problems.add(e.getMessage());
    }
    try {
      for (String unit : HostPaths.STACK_UNITS) {
        UnitStatus s = ctx.ports().systemd().status(unit);
        if (!s.isActive()) {
          problems.add(unit + " is " + s.active().name().toLowerCase(Locale.ROOT) + "/" + s.sub());
        }
      }
    } catch (SystemdException e) {
      problems.add("systemd cannot be asked about the units: " + e.getMessage());
    }
    return new LaunchCheckReport(problems.isEmpty(), version, problems);
  }

  /** The active version, or null with the reason added to {@code problems}; a version that does not verify is a problem too. */
  private static String activeVersion(NodeContext ctx, List<String> problems) throws IOException {
    Layout layout = ctx.session().layout();
    HostFiles files = ctx.ports().files();
    try {
      Optional<String> active = new CurrentLink(files, layout).active();
      if (active.isEmpty()) {
        problems.add("no active version: " + layout.current() + " does not exist");
        return null;
      }
      VersionVerifier.Verification v = new VersionVerifier(files, layout).verify(active.get());
      if (!v.verified()) {
        problems.add("active version " + active.get() + " is not verified: " + v.describe());
      }
      return active.get();
    } catch (InvalidCurrentLinkException e) {
      problems.add(e.getMessage());
      return null;
    }
  }
}
