package dev.noneops.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.cli.output.Json;
import dev.noneops.core.daemon.AgentState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.Node.NodeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/**
 * {@code noneops status}: what is installed and active (with sizes), whether the stack runs (each
 * unit's state and uptime), how many pods containerd runs, whether an upgrade is in flight, and what the agent last did (the recovery gate at the last boot, the
 * daemon's recovery at its start, its last change and the target it quarantines). Read-only and
 * needs no root and no configuration; when systemd cannot be reached the rest is still reported,
 * with the reason.
 */
@Command(
    name = "status",
    header = "Show versions, units, pods, the agent, an upgrade",
    description = "The active and installed versions with their sizes, the three units with their"
        + " state and uptime, how many pods containerd runs, an upgrade in flight, the"
        + " applied configuration, and what the agent last did: the recovery gate at the last"
        + " boot, the daemon's recovery at its start, its last change and a quarantined target."
        + " Read-only; needs no root and no configuration. Exits 0 when the stack runs, 7 when"
        + " it does not.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops status", "  noneops --json status | jq .agent.bootRecovery"})
public final class StatusCommand extends CliCommand {
  /** One thing the agent recorded (see {@link AgentState.Event}). */
  public record AgentEvent(String at, String kind, String outcome, String detail) {
    static AgentEvent of(AgentState.Event e) {
      return new AgentEvent(e.at().toString(), e.kind(), e.outcome(), e.detail());
    }
  }

  /**
   * What the agent last did, the {@code agent} object of {@code status --json} (each field null
   * when nothing is recorded).
   */
  public record AgentReport(
      AgentEvent bootRecovery,
      AgentEvent startRecovery,
      AgentEvent lastOperation,
      String quarantinedTarget) {
    static AgentReport of(AgentState state) {
      return new AgentReport(
          state.bootRecovery().map(AgentEvent::of).orElse(null),
          state.startRecovery().map(AgentEvent::of).orElse(null),
          state.lastOperation().map(AgentEvent::of).orElse(null),
          state.quarantined().stream()
              .map(AgentState.Quarantine::targetVersion)
              .findFirst()
              .orElse(null));
    }
  }

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      NodeStatus report = ctx.node(Optional.empty(), Optional.empty()).status();
      AgentReport agent =
          AgentReport.of(AgentState.read(ctx.ports().files(), ctx.session().paths()));
      if (json()) {
        ObjectNode document = Json.MAPPER.valueToTree(report);
        document.set("agent", Json.MAPPER.valueToTree(agent));
        printJson(document);
      } else {
        printText(report, agent, ctx.ports().clock().now());
      }
      return report.running() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  private void printText(NodeStatus r, AgentReport agent, Instant now) {
    var out = out();
    out.println("node:      " + (r.installed() ? "installed" : "not installed"));
    out.println("active:    "
        + (r.activeVersion() == null
            ? "-"
            : r.activeVersion()
                + sizeOf(r, r.activeVersion()).map(b -> " (" + b + ")").orElse("")));
    out.println("installed: "
        + (r.installedVersions().isEmpty()
            ? "-"
            : r.installedVersions().stream()
                .map(v -> v + sizeOf(r, v).map(b -> " (" + b + ")").orElse(""))
                .collect(Collectors.joining(", "))));
    out.println("stack:     " + (r.running() ? "running" : "not running"));
    for (Map.Entry<String, NodeStatus.Unit> u : r.units().entrySet()) {
      out.printf("  %-20s %s%n", u.getKey(), describe(u.getValue(), now));
    }
    if (r.systemdError() != null) {
      out.println("  systemd unreachable: " + r.systemdError());
    }
    NodeStatus.Pods pods = r.pods();
    out.println("pods:      "
        + (pods.running() != null
            ? pods.running() + " running (" + pods.tasks() + " containerd tasks in k8s.io)"
            : "unknown (" + pods.unknownBecause() + ")"));
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
    if (r.agentUnit() != null) {
      out.println("daemon:    "
          + (r.agentUnit().load().equals("not_found")
              ? "not installed (" + HostPaths.AGENT_UNIT + " not found)"
              : HostPaths.AGENT_UNIT + " " + describe(r.agentUnit(), now)));
    }
    printAgentEvent("boot:      ", agent.bootRecovery());
    printAgentEvent("agent:     ", agent.startRecovery());
    printAgentEvent("last:      ", agent.lastOperation());
    if (agent.quarantinedTarget() != null) {
      out.println("quarantined: " + agent.quarantinedTarget()
          + " rolled back; the agent does not try it again until its configuration file changes");
    }
  }

  /** {@code active/running (pid 12) since <instant>, up 2h 5m}. */
  private static String describe(NodeStatus.Unit s, Instant now) {
    return s.active() + "/" + s.sub() + (s.mainPid() > 0 ? " (pid " + s.mainPid() + ")" : "")
        + (s.activeSince() == null
            ? ""
            : " since " + s.activeSince() + ", up "
                + uptime(Duration.between(Instant.parse(s.activeSince()), now)));
  }

  private static Optional<String> sizeOf(NodeStatus r, String version) {
    return r.versionSizes().stream()
        .filter(v -> v.version().equals(version))
        .findFirst()
        .map(v -> v.bytes() < 1048576
            ? String.format(Locale.ROOT, "%.1f KiB", v.bytes() / 1024.0)
            : String.format(Locale.ROOT, "%.1f MiB", v.bytes() / 1048576.0));
  }

  /** {@code 3d 4h}, {@code 2h 5m}, {@code 4m 10s}, {@code 12s}: the two largest units. */
  static String uptime(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s >= 86_400) {
      return s / 86_400 + "d " + s % 86_400 / 3600 + "h";
    }
    if (s >= 3600) {
      return s / 3600 + "h " + s % 3600 / 60 + "m";
    }
    if (s >= 60) {
      return s / 60 + "m " + s % 60 + "s";
    }
    return s + "s";
  }

  private void printAgentEvent(String label, AgentEvent e) {
    if (e != null) {
      out().println(label + e.kind() + " " + e.outcome() + " at " + e.at() + ": " + e.detail());
    }
  }
}
