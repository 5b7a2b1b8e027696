package dev.noneops.ports.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The agent's figures at one instant, as a fleet sees them.
 *
 * @param activeVersion the version {@code current} names (empty when none is active)
 * @param installedVersions every version installed under the layout
 * @param unitsActive each stack unit, and whether it is active
 * @param operations the operations the agent ended, counted by kind and outcome since the node's
 *     agent state was first written (they survive restarts of the daemon)
 * @param quarantinedTarget the target version whose upgrade rolled back and is not tried again
 *     until the configuration file changes
 * @param lastTick when the daemon last ticked
 * @param lastSuccess when an operation last ended well (applied, upgraded, recovered)
 * @param repaveCounterSeen the Machine's {@code spec.operations.repaveCounter} last seen
 * @param repaveCounterAcknowledged the Machine's {@code status.operations.repaveCounter} last seen
 * @param bytesDownloaded bytes of artifacts downloaded, counted as {@code operations}
 * @param bytesVerified of those, the bytes whose checksum was verified
 * @param lastSwitchOver how long the last switch-over took
 */
public record AgentFigures(
    Optional<String> activeVersion,
    List<String> installedVersions,
    Map<String, Boolean> unitsActive,
    Map<Operation, Long> operations,
    Optional<String> quarantinedTarget,
    Optional<Instant> lastTick,
    Optional<Instant> lastSuccess,
    OptionalLong repaveCounterSeen,
    OptionalLong repaveCounterAcknowledged,
    long bytesDownloaded,
    long bytesVerified,
    Optional<Duration> lastSwitchOver) {

  public AgentFigures {
    Objects.requireNonNull(activeVersion, "activeVersion");
    installedVersions = List.copyOf(installedVersions);
    unitsActive = Map.copyOf(unitsActive);
    operations = Map.copyOf(operations);
    Objects.requireNonNull(quarantinedTarget, "quarantinedTarget");
    Objects.requireNonNull(lastTick, "lastTick");
    Objects.requireNonNull(lastSuccess, "lastSuccess");
    Objects.requireNonNull(repaveCounterSeen, "repaveCounterSeen");
    Objects.requireNonNull(repaveCounterAcknowledged, "repaveCounterAcknowledged");
    Objects.requireNonNull(lastSwitchOver, "lastSwitchOver");
  }

  /**
   * One kind of operation with one outcome.
   *
   * @param operation {@code apply}, {@code upgrade}, {@code recovery}, {@code repave} or {@code
   *     config} (the configuration file itself refused)
   * @param outcome {@code applied}, {@code upgraded}, {@code rolled-back}, {@code recovered},
   *     {@code refused} or {@code failed}
   */
  public record Operation(String operation, String outcome) {
    /** The outcomes an operation ends with. */
    public static final List<String> OUTCOMES =
        List.of("applied", "upgraded", "rolled-back", "recovered", "refused", "failed");

    public Operation {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(outcome, "outcome");
    }
  }
}
