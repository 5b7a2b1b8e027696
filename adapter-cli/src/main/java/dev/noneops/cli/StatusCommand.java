package dev.noneops.cli;

import dev.noneops.daemon.AgentState;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
   * it can, and when the command inspected the host itself), and what the agent counted, as its
   * metrics show it.
   */
  public record AgentReport(
      AgentEvent bootRecovery,
      AgentEvent startRecovery,
      AgentEvent lastOperation,
      String quarantinedTarget,
      String systemdUnreachableSince,
      AgentCounters counters) {
    static AgentReport of(AgentState state, Optional<Instant> systemdUnreachableSince) {
      return new AgentReport(
          state.bootRecovery().map(AgentEvent::of).orElse(null),
          state.startRecovery().map(AgentEvent::of).orElse(null),
          state.lastOperation().map(AgentEvent::of).orElse(null),
          state.quarantined().stream()
              .map(AgentState.Quarantine::targetVersion)
              .findFirst()
              .orElse(null),
          systemdUnreachableSince.map(Instant::toString).orElse(null),
          AgentCounters.of(state.counters()));
    }
  }

  /**
   * What the agent counted (see {@link AgentState.Counters}), the numbers of its metrics {@code
   * noneops_operations_total}, {@code noneops_download_bytes_total}, {@code
   * noneops_download_verified_bytes_total} and {@code noneops_last_success_timestamp_seconds}.
   *
   * @param operations operation → outcome → how many ended so
   * @param lastSuccess when an operation last ended well (ISO-8601 instant), null before one has
   */
  public record AgentCounters(
      Map<String, Map<String, Long>> operations,
      long bytesDownloaded,
      long bytesVerified,
      String lastSuccess) {
    static AgentCounters of(AgentState.Counters c) {
      Map<String, Map<String, Long>> operations = new TreeMap<>();
      c.operations().forEach((op, outcomes) -> operations.put(op, new TreeMap<>(outcomes)));
      return new AgentCounters(
          operations,
          c.bytesDownloaded(),
          c.bytesVerified(),
          c.lastSuccess().map(Instant::toString).orElse(null));
    }
  }

  @Mixin
  DirectOption direct;

  @Override
  protected ExitCode execute() throws Exception {
    return inspect(Inspection.STATUS, direct);
  }
}
