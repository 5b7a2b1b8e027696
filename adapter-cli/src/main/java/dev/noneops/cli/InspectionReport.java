package dev.noneops.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.noneops.cli.StatusCommand.AgentEvent;
import dev.noneops.cli.StatusCommand.AgentReport;
import dev.noneops.cli.output.Json;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.LaunchCheckReport;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeStatus;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.RecoveryGate;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.ActiveState;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code status} and {@code allocation-launch-check} print on stdout and how they exit,
 * read from the node as it is now: the one rendering that the commands and the agent's daemon
 * (answering them over its socket) share, so an answer from either is the same bytes.
 *
 * @param exitCode how the command exits
 * @param stdout everything it prints on stdout
 */
record InspectionReport(ExitCode exitCode, String stdout) {

  /** Inspects the node through {@code node} and the host's {@code ports} and renders {@code what}. */
  static InspectionReport of(
      Inspection what, boolean json, Node node, HostPorts ports, HostPaths paths)
      throws IOException {
    return of(what, json, node, ports, paths, Optional.empty());
  }

  /**
   * As {@link #of(Inspection, boolean, Node, HostPorts, HostPaths)}, answered by the running
   * agent, which says since when it cannot reach systemd (empty while it can).
   */
  static InspectionReport of(
      Inspection what,
      boolean json,
      Node node,
      HostPorts ports,
      HostPaths paths,
      Optional<Instant> systemdUnreachableSince)
      throws IOException {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    ExitCode exit = switch (what) {
      case STATUS -> status(out, json, node, ports, paths, systemdUnreachableSince);
      case LAUNCH_CHECK -> launchCheck(out, json, node);
    };
    out.flush();
    return new InspectionReport(exit, text.toString());
  }

  private static ExitCode status(
      PrintWriter out,
      boolean json,
      Node node,
      HostPorts ports,
      HostPaths paths,
      Optional<Instant> systemdUnreachableSince)
      throws IOException {
    NodeStatus report = node.inspect().status();
    AgentReport agent =
        AgentReport.of(AgentState.read(ports.files(), paths), systemdUnreachableSince);
    if (json) {
      ObjectNode document = Json.MAPPER.valueToTree(report);
      document.set("agent", Json.MAPPER.valueToTree(agent));
      Json.print(out, Inspection.STATUS.command(), document);
    } else {
      printStatus(out, report, agent, ports.clock().now());
    }
    return report.running() ? ExitCode.OK : ExitCode.UNHEALTHY;
  }

  private static ExitCode launchCheck(PrintWriter out, boolean json, Node node) throws IOException {
    LaunchCheckReport report = node.inspect().launchCheck();
    if (json) {
      Json.print(out, Inspection.LAUNCH_CHECK.command(), report);
    } else if (report.healthy()) {
      out.println("healthy: version " + report.version() + ", units active, no upgrade in flight");
    } else {
      out.println("unhealthy:");
      report.problems().forEach(p -> out.println("  - " + p));
    }
    return report.healthy() ? ExitCode.OK : ExitCode.UNHEALTHY;
  }

  private static void printStatus(PrintWriter out, NodeStatus r, AgentReport agent, Instant now) {
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
            : r.needsRoot().stream().anyMatch(n -> n.startsWith(NodeStatus.APPLIED_CONFIGURATION))
                ? "unknown without root"
                : "none recorded"));
    if (r.agentUnit() != null) {
      out.println("daemon:    "
          + (r.agentUnit().load().equals("not_found")
              ? "not installed (" + HostPaths.AGENT_UNIT + " not found)"
              : HostPaths.AGENT_UNIT + " " + describe(r.agentUnit(), now)));
    }
    if (agent.systemdUnreachableSince() != null) {
      out.println("systemd:   unreachable from the agent since " + agent.systemdUnreachableSince()
          + "; it waits for systemd and sends the watchdog no keep-alive");
    }
    if (gateSkippedThisBoot(r.gateUnit())) {
      out.println("boot:      the recovery gate did not run on this boot: its conditions found"
          + " nothing in flight"
          + (agent.bootRecovery() == null
              ? ""
              : "; its last run, in an earlier boot: " + agent.bootRecovery().kind() + " "
                  + agent.bootRecovery().outcome() + " at "
                  + agent.bootRecovery().at() + ": "
                  + agent.bootRecovery().detail()));
    } else {
      printAgentEvent(
          out,
          "boot:      ",
          agent.bootRecovery(),
          r.appliedConfig() && foundNoAppliedConfiguration(agent.bootRecovery())
              ? ", before the configuration was applied"
              : "");
    }
    printAgentEvent(out, "agent:     ", agent.startRecovery());
    printAgentEvent(out, "last:      ", agent.lastOperation());
    if (!agent.counters().operations().isEmpty()) {
      out.println("counted:   "
          + agent.counters().operations().entrySet().stream()
              .flatMap(op -> op.getValue().entrySet().stream()
                  .map(o -> op.getKey() + " " + o.getKey() + " " + o.getValue()))
              .collect(Collectors.joining(", "))
          + "; downloaded " + agent.counters().bytesDownloaded() + " bytes ("
          + agent.counters().bytesVerified() + " verified)");
    }
    if (!r.disowned().isEmpty()) {
      out.println("disowned:  "
          + r.disowned().stream()
              .map(d -> d.path() + " (a " + d.found() + " replaced the node's link)")
              .collect(Collectors.joining(", "))
          + "; no longer the node's, left as they are");
    }
    if (agent.quarantinedTarget() != null) {
      out.println("quarantined: " + agent.quarantinedTarget()
          + " rolled back; the agent does not try it again until its configuration file changes");
    }
    if (!r.needsRoot().isEmpty()) {
      out.println("needs root: " + String.join(", ", r.needsRoot())
          + "; only root can read them (sudo noneops status)");
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

  private static void printAgentEvent(PrintWriter out, String label, AgentEvent e) {
    printAgentEvent(out, label, e, "");
  }

  /** {@code label kind OUTCOME at <instant><when>: detail}. */
  private static void printAgentEvent(PrintWriter out, String label, AgentEvent e, String when) {
    if (e != null) {
      out.println(
          label + e.kind() + " " + e.outcome() + " at " + e.at() + when + ": " + e.detail());
    }
  }

  /**
   * Whether the recovery gate is installed and did not run in this boot ({@link
   * RecoveryGate#ranThisBoot}): the state's boot recovery is then an earlier boot's.
   */
  private static boolean gateSkippedThisBoot(NodeStatus.Unit gate) {
    return gate != null
        && !gate.load().equals("not_found")
        && !RecoveryGate.ranThisBoot(ActiveState.fromSystemd(gate.active()));
  }

  /**
   * Whether the recovery gate's run found no applied configuration (as its run while the
   * bootstrap starts the stack does, before the bootstrap records the configuration): beside a
   * recorded configuration, that run came before it.
   */
  private static boolean foundNoAppliedConfiguration(AgentEvent gate) {
    return gate != null
        && gate.outcome().equals("NOTHING_TO_DO")
        && gate.detail().endsWith("no applied configuration");
  }
}
