package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.daemon.AgentState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.upgrade.UpgradeJournal;
import dev.noneops.core.upgrade.UpgradeRecord;
import dev.noneops.core.upgrade.VersionPruner;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code noneops status}: what is installed, what is active, whether the stack runs, whether an
 * upgrade is in flight, what the agent last did. Read-only and needs no root and no configuration; when systemd cannot be
 * reached the rest is still reported, with the reason.
 */
@Command(
    name = "status",
    description = {
      "Show the node: active version, installed versions, the three units, an upgrade in flight,",
      "the applied configuration, what the agent last did (the recovery gate at boot, its start,",
      "its last change). Read-only; exits 0 when the stack runs, 7 when it does not."
    })
public final class StatusCommand extends CliCommand {
  static final List<String> UNITS = HostPaths.STACK_UNITS;

  /** One unit's state. */
  public record UnitReport(String load, String active, String sub, long mainPid) {}

  /** An upgrade whose journal is on disk. */
  public record UpgradeReport(String previousVersion, String targetVersion, String startedAt) {}

  /** The JSON document of {@code status --json}. */
  public record StatusReport(
      boolean installed,
      String activeVersion,
      List<String> installedVersions,
      boolean running,
      Map<String, UnitReport> units,
      String systemdError,
      UpgradeReport upgradeInFlight,
      boolean appliedConfig,
      String appliedMachineName,
      AgentReport agent) {}

  /** One thing the agent recorded (see {@link AgentState.Event}). */
  public record AgentEvent(String at, String kind, String outcome, String detail) {
    static AgentEvent of(AgentState.Event e) {
      return new AgentEvent(e.at().toString(), e.kind(), e.outcome(), e.detail());
    }
  }

  /**
   * What the agent last did: the recovery gate at the last boot, the daemon's recovery at its
   * last start, and its last change for the configuration file (each null when none is recorded).
   */
  public record AgentReport(
      AgentEvent bootRecovery, AgentEvent startRecovery, AgentEvent lastOperation) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      StatusReport report = read(ctx);
      if (json()) {
        printJson(report);
      } else {
        printText(report);
      }
      return report.running() ? ExitCode.OK : ExitCode.UNHEALTHY;
    }
  }

  /** The node as it is: versions, units (or why systemd could not say), an upgrade in flight, the applied config. */
  private static StatusReport read(NodeContext ctx) throws IOException {
    Layout layout = ctx.session().layout();
    HostFiles files = ctx.ports().files();
    Optional<String> active = files.exists(layout.current())
        ? Optional.of(files.readLink(layout.current()))
        : Optional.empty();
    List<String> installed = new ArrayList<>(new VersionPruner(
            files,
            ctx.ports().processes(),
            layout,
            ctx.session().paths(),
            ctx.teardown()::removeTree)
        .installedVersions());
    Map<String, UnitReport> units = new LinkedHashMap<>();
    String systemdError = null;
    boolean running = true;
    Systemd systemd = ctx.ports().systemd();
    try {
      for (String unit : UNITS) {
        UnitStatus s = systemd.status(unit);
        units.put(
            unit,
            new UnitReport(
                s.load().name().toLowerCase(Locale.ROOT),
                s.active().name().toLowerCase(Locale.ROOT),
                s.sub(),
                s.mainPid()));
        running &= s.isActive();
      }
    } catch (SystemdException e) {
      systemdError = e.getMessage();
      running = false;
    }
    Optional<UpgradeRecord> journal = new UpgradeJournal(files, layout).read();
    Optional<AgentConfig> applied = ctx.applied().read();
    return new StatusReport(
        active.isPresent() || !installed.isEmpty(),
        active.map(a -> a.replaceAll("/+$", "")).orElse(null),
        installed,
        running,
        units,
        systemdError,
        journal
            .map(j -> new UpgradeReport(
                j.previousVersion(), j.targetVersion(), j.startedAt().toString()))
            .orElse(null),
        applied.isPresent(),
        applied.map(AgentConfig::machineName).orElse(null),
        agent(AgentState.read(files, ctx.session().paths())));
  }

  private static AgentReport agent(AgentState state) {
    return new AgentReport(
        state.bootRecovery().map(AgentEvent::of).orElse(null),
        state.startRecovery().map(AgentEvent::of).orElse(null),
        state.lastOperation().map(AgentEvent::of).orElse(null));
  }

  private void printText(StatusReport r) {
    var out = out();
    out.println("node:      " + (r.installed() ? "installed" : "not installed"));
    out.println("active:    " + (r.activeVersion() == null ? "-" : r.activeVersion()));
    out.println("installed: "
        + (r.installedVersions().isEmpty() ? "-" : String.join(", ", r.installedVersions())));
    out.println("stack:     " + (r.running() ? "running" : "not running"));
    for (Map.Entry<String, UnitReport> u : r.units().entrySet()) {
      UnitReport s = u.getValue();
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
    printAgentEvent("boot:      ", r.agent().bootRecovery());
    printAgentEvent("agent:     ", r.agent().startRecovery());
    printAgentEvent("last:      ", r.agent().lastOperation());
  }

  private void printAgentEvent(String label, AgentEvent e) {
    if (e != null) {
      out().println(label + e.kind() + " " + e.outcome() + " at " + e.at() + ": " + e.detail());
    }
  }
}
