package dev.noneops.cli;

import dev.noneops.core.node.Node.NodeStatus;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code noneops status}: what is installed, what is active, whether the stack runs, whether an
 * upgrade is in flight. Read-only and needs no root and no configuration; when systemd cannot be
 * reached the rest is still reported, with the reason.
 */
@Command(
    name = "status",
    header = "Show versions, units, the agent, an upgrade",
    description =
        "Read-only; needs no root and no configuration. Exits 0 when the stack runs, 7 when it does not.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops status", "  noneops --json status | jq .activeVersion"})
public final class StatusCommand extends CliCommand {
  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      NodeStatus report = ctx.node(Optional.empty(), Optional.empty()).status();
      if (json()) {
        printJson(report);
      } else {
        printText(report);
      }
      return report.running() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  private void printText(NodeStatus r) {
    var out = out();
    out.println("node:      " + (r.installed() ? "installed" : "not installed"));
    out.println("active:    " + (r.activeVersion() == null ? "-" : r.activeVersion()));
    out.println("installed: "
        + (r.installedVersions().isEmpty() ? "-" : String.join(", ", r.installedVersions())));
    out.println("stack:     " + (r.running() ? "running" : "not running"));
    for (Map.Entry<String, NodeStatus.Unit> u : r.units().entrySet()) {
      NodeStatus.Unit s = u.getValue();
      out.printf(
          "  %-20s %s/%s%s%n",
          u.getKey(), s.active(), s.sub(), s.mainPid() > 0 ? " (pid " + s.mainPid() + ")" : "");
    }
    if (r.systemdError() != null) {
      out.println("  systemd unreachable: " + r.systemdError());
    }
    out.println("upgrade:   "
        + (r.upgradeInFlight() == null
            ? "none in flight"
            : "in flight from " + r.upgradeInFlight().previousVersion() + " to "
                + r.upgradeInFlight().targetVersion() + " since "
                + r.upgradeInFlight().startedAt() + " (run 'noneops recover')"));
    out.println("applied:   "
        + (r.appliedConfig()
            ? "recorded (machine " + r.appliedMachineName() + ")"
            : "none recorded"));
  }
}
