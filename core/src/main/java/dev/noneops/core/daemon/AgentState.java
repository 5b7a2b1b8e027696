package dev.noneops.core.daemon;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.files.HostFiles;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the agent last did, as the recovery gate and the daemon record it in
 * {@code /etc/unbounded/agent/agent-state.json} and {@code noneops status} shows it.
 *
 * @param bootRecovery the recovery gate's last run
 * @param startRecovery the daemon's recovery at its last start
 * @param lastOperation the last change the daemon made or refused for the configuration file
 * @param quarantined targets whose upgrade rolled back: not tried again until the file changes
 * @param watching the configuration file the daemon watches, and since when it runs
 */
public record AgentState(
    Optional<Event> bootRecovery,
    Optional<Event> startRecovery,
    Optional<Event> lastOperation,
    List<Quarantine> quarantined,
    Optional<Watch> watching) {

  /** No state recorded yet. */
  public static final AgentState EMPTY = new AgentState(
      Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty());

  public AgentState {
    Objects.requireNonNull(bootRecovery, "bootRecovery");
    Objects.requireNonNull(startRecovery, "startRecovery");
    Objects.requireNonNull(lastOperation, "lastOperation");
    Objects.requireNonNull(watching, "watching");
    quarantined = List.copyOf(quarantined);
  }

  /**
   * One thing the agent did.
   *
   * @param at when it ended
   * @param kind what it was: {@code boot-recovery}, {@code start-recovery}, {@code apply},
   *     {@code upgrade}, {@code refused}
   * @param outcome how it ended, e.g. {@code NOTHING_TO_DO}, {@code ROLLED_BACK}, {@code APPLIED},
   *     {@code FAILED}
   * @param detail one line an operator reads
   */
  public record Event(Instant at, String kind, String outcome, String detail) {
    public Event {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /** A target version whose upgrade rolled back, for the configuration of this digest. */
  public record Quarantine(
      String configDigest, String targetVersion, Instant since, String reason) {
    public Quarantine {
      Objects.requireNonNull(configDigest, "configDigest");
      Objects.requireNonNull(targetVersion, "targetVersion");
      Objects.requireNonNull(since, "since");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * The daemon's configuration file, when the daemon started watching it, and the SHA-256 of the
   * content it last acted on (empty before its first): the daemon acts when the file changes, so
   * an operator's own {@code noneops upgrade} is not undone by a file that did not change.
   */
  public record Watch(String configFile, Instant since, Optional<String> handledDigest) {
    public Watch {
      Objects.requireNonNull(configFile, "configFile");
      Objects.requireNonNull(since, "since");
      Objects.requireNonNull(handledDigest, "handledDigest");
    }
  }

  /** The state recorded on this host ({@link #EMPTY} when none is, or it cannot be read). */
  public static AgentState read(HostFiles files, HostPaths paths) {
    return new AgentStateStore(files, paths).read();
  }

  AgentState withBootRecovery(Event event) {
    return new AgentState(Optional.of(event), startRecovery, lastOperation, quarantined, watching);
  }

  AgentState withStartRecovery(Event event) {
    return new AgentState(bootRecovery, Optional.of(event), lastOperation, quarantined, watching);
  }

  AgentState withLastOperation(Event event) {
    return new AgentState(bootRecovery, startRecovery, Optional.of(event), quarantined, watching);
  }

  AgentState withQuarantined(List<Quarantine> targets) {
    return new AgentState(bootRecovery, startRecovery, lastOperation, targets, watching);
  }

  AgentState withWatching(Watch watch) {
    return new AgentState(
        bootRecovery, startRecovery, lastOperation, quarantined, Optional.of(watch));
  }

  /** Whether the configuration of {@code digest} is quarantined. */
  public boolean isQuarantined(String digest) {
    return quarantined.stream().anyMatch(q -> q.configDigest().equals(digest));
  }
}
