package dev.noneops.cli;

import dev.noneops.core.install.VersionVerifier;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.upgrade.UpgradeJournal;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code noneops allocation-launch-check} ({@code LaunchCheckCommand}): the command kubelet's
 * allocation launch check runs. Exits 0 only when the stack is healthy — its units active,
 * {@code current} a complete and verified version, no upgrade in flight — and otherwise names
 * every problem.
 */
@Command(name = NodeConstants.LAUNCH_CHECK_COMMAND, description = {
    "Exit 0 only when the node is healthy: units active, 'current' a complete verified version,",
    "no upgrade in flight; otherwise list every problem and exit 7. Run by kubelet's allocation",
    "launch check."})
public final class LaunchCheckCommand extends CliCommand {

  /** The JSON document of {@code allocation-launch-check --json}. */
  public record LaunchCheckReport(boolean healthy, String version, List<String> problems) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      var layout = ctx.session().layout();
      var files = ctx.ports().files();
      List<String> problems = new ArrayList<>();
      String version = null;
      if (!files.exists(layout.current())) {
        problems.add("no active version: " + layout.current() + " does not exist");
      } else {
        version = files.readLink(layout.current());
        VersionVerifier.Verification v = new VersionVerifier(files, layout).verify(version);
        if (!v.verified()) {
          problems.add("active version " + version + " is not verified: " + v.describe());
        }
      }
      new UpgradeJournal(files, layout).read().ifPresent(j -> problems.add(
          "an upgrade from " + j.previousVersion() + " to " + j.targetVersion() + " is in flight (journal " + layout.journal() + ")"));
      try {
        for (String unit : StatusCommand.UNITS) {
          UnitStatus s = ctx.ports().systemd().status(unit);
          if (!s.isActive()) {
            problems.add(unit + " is " + s.active().name().toLowerCase(java.util.Locale.ROOT) + "/" + s.sub());
          }
        }
      } catch (SystemdException e) {
        problems.add("systemd cannot be asked about the units: " + e.getMessage());
      }
      boolean healthy = problems.isEmpty();
      if (json()) {
        printJson(new LaunchCheckReport(healthy, version, problems));
      } else if (healthy) {
        out().println("healthy: version " + version + ", units active, no upgrade in flight");
      } else {
        out().println("unhealthy:");
        problems.forEach(p -> out().println("  - " + p));
      }
      return healthy ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }
}
