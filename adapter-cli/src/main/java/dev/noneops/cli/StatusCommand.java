package dev.noneops.cli;

import dev.noneops.core.daemon.AgentState;
import java.time.Instant;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops status}: what is installed and active (with sizes), whether the stack runs (each
 * unit's state and uptime), how many pods containerd runs, whether an upgrade is in flight, and what the agent last did (the recovery gate at the last boot, the
 * daemon's recovery at its start, its last change and the target it quarantines). Read-only and
 * needs no root and no configuration; when systemd cannot be reached the rest is still reported,
 * with the reason. While the agent's daemon runs, it answers instead ({@link DaemonAnswers}), with
 * the same {@link InspectionReport}; this command runs when it does not, or with {@code --direct}.
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
   * when nothing is recorded), and since when the running agent cannot reach systemd (null while
   * it can, and when the command inspected the host itself).
   */
  public record AgentReport(
      AgentEvent bootRecovery,
      AgentEvent startRecovery,
      AgentEvent lastOperation,
      String quarantinedTarget,
      String systemdUnreachableSince) {
    static AgentReport of(AgentState state, Optional<Instant> systemdUnreachableSince) {
      return new AgentReport(
          state.bootRecovery().map(AgentEvent::of).orElse(null),
          state.startRecovery().map(AgentEvent::of).orElse(null),
          state.lastOperation().map(AgentEvent::of).orElse(null),
          state.quarantined().stream()
              .map(AgentState.Quarantine::targetVersion)
              .findFirst()
              .orElse(null),
          systemdUnreachableSince.map(Instant::toString).orElse(null));
    }
  }

  @Mixin
  DirectOption direct;

  @Override
  protected ExitCode execute() throws Exception {
    return inspect(Inspection.STATUS, direct);
  }
}
