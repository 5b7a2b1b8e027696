package dev.noneops.daemon;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.files.HostFiles;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the agent last did, as the recovery gate and the daemon record it in
 * {@code /etc/unbounded/agent/agent-state.json} and {@code noneops status} shows it.
 *
 * @param bootRecovery the recovery gate's last run
 * @param startRecovery the daemon's recovery at its last start
 * @param lastOperation the last change the daemon made or refused for the configuration file
 * @param quarantined targets whose upgrade rolled back: not tried again until the file changes
 * @param watching the configuration file the daemon watches, and since when it runs
 * @param counters what the agent counted since the state was first written: operations by kind
 *     and outcome, bytes downloaded and verified, and when an operation last ended well
 */
public record AgentState(
    Optional<Event> bootRecovery,
    Optional<Event> startRecovery,
    Optional<Event> lastOperation,
    List<Quarantine> quarantined,
    Optional<Watch> watching,
    Counters counters) {

  /** No state recorded yet. */
  public static final AgentState EMPTY = new AgentState(
      Optional.empty(),
      Optional.empty(),
      Optional.empty(),
      List.of(),
      Optional.empty(),
      Counters.NONE);

  public AgentState {
    Objects.requireNonNull(bootRecovery, "bootRecovery");
    Objects.requireNonNull(startRecovery, "startRecovery");
    Objects.requireNonNull(lastOperation, "lastOperation");
    Objects.requireNonNull(watching, "watching");
    Objects.requireNonNull(counters, "counters");
    quarantined = List.copyOf(quarantined);
  }

  /**
   * What the agent counted. Kept in the state file, so a restarted daemon goes on counting where
   * it stopped (a missing or unreadable state file starts again from zero, which Prometheus reads
   * as a counter reset).
   *
   * @param operations operations by kind ({@code apply}, {@code upgrade}, {@code recovery},
   *     {@code repave}, {@code config}) and outcome ({@code applied}, {@code upgraded}, {@code
   *     rolled-back}, {@code recovered}, {@code refused}, {@code failed})
   * @param bytesDownloaded bytes of artifacts the daemon's operations downloaded
   * @param bytesVerified of those, the bytes whose checksum was verified
   * @param lastSuccess when an operation last ended applied, upgraded or recovered
   */
  public record Counters(
      Map<String, Map<String, Long>> operations,
      long bytesDownloaded,
      long bytesVerified,
      Optional<Instant> lastSuccess) {
    /** Nothing counted. */
    public static final Counters NONE = new Counters(Map.of(), 0, 0, Optional.empty());

    public Counters {
      Map<String, Map<String, Long>> copy = new TreeMap<>();
      operations.forEach((k, v) -> copy.put(k, Map.copyOf(new TreeMap<>(v))));
      operations = Map.copyOf(copy);
      Objects.requireNonNull(lastSuccess, "lastSuccess");
    }

    /** How many operations of {@code operation} ended with {@code outcome}. */
    public long count(String operation, String outcome) {
      return operations.getOrDefault(operation, Map.of()).getOrDefault(outcome, 0L);
    }

    /** These counters with {@code event} counted, when it is an operation's end. */
    Counters counting(Event event) {
      Optional<String[]> key = operationOf(event.kind(), event.outcome());
      if (key.isEmpty()) {
        return this;
      }
      String operation = key.get()[0];
      String outcome = key.get()[1];
      Map<String, Map<String, Long>> next = new TreeMap<>();
      operations.forEach((k, v) -> next.put(k, new TreeMap<>(v)));
      next.computeIfAbsent(operation, k -> new TreeMap<>()).merge(outcome, 1L, Long::sum);
      boolean success =
          outcome.equals("applied") || outcome.equals("upgraded") || outcome.equals("recovered");
      return new Counters(
          next, bytesDownloaded, bytesVerified, success ? Optional.of(event.at()) : lastSuccess);
    }

    /** These counters with {@code downloaded} bytes more, {@code verified} of them verified. */
    Counters withBytes(long downloaded, long verified) {
      return new Counters(
          operations, bytesDownloaded + downloaded, bytesVerified + verified, lastSuccess);
    }

    /**
     * The operation and outcome an event of the agent counts as, e.g. {@code upgrade}/{@code
     * ROLLED_BACK} as {@code upgrade}, {@code rolled-back}; empty for an event that ends no
     * operation (a recovery with nothing to do, a busy node).
     */
    static Optional<String[]> operationOf(String kind, String outcome) {
      String operation = switch (kind) {
        case "boot-recovery", "start-recovery", "recovery" -> "recovery";
        case "refused" -> "config";
        default -> kind;
      };
      String counted = switch (outcome.toUpperCase(Locale.ROOT)) {
        case "APPLIED", "REPAVED" -> "applied";
        case "COMMITTED" -> operation.equals("recovery") ? "recovered" : "upgraded";
        case "ROLLBACK_FINISHED", "RECOVERED" -> "recovered";
        case "ROLLED_BACK" -> "rolled-back";
        case "REFUSED", "INVALID", "UNTRUSTED", "INVALID_SPEC", "DRAIN_BLOCKED" -> "refused";
        case "FAILED", "NOT_REGISTERED" -> "failed";
        default -> null;
      };
      return counted == null ? Optional.empty() : Optional.of(new String[] {operation, counted});
    }
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
    return new AgentState(
        Optional.of(event),
        startRecovery,
        lastOperation,
        quarantined,
        watching,
        counters.counting(event));
  }

  AgentState withStartRecovery(Event event) {
    return new AgentState(
        bootRecovery,
        Optional.of(event),
        lastOperation,
        quarantined,
        watching,
        counters.counting(event));
  }

  AgentState withLastOperation(Event event) {
    return new AgentState(
        bootRecovery,
        startRecovery,
        Optional.of(event),
        quarantined,
        watching,
        counters.counting(event));
  }

  AgentState withQuarantined(List<Quarantine> targets) {
    return new AgentState(bootRecovery, startRecovery, lastOperation, targets, watching, counters);
  }

  AgentState withWatching(Watch watch) {
    return new AgentState(
        bootRecovery, startRecovery, lastOperation, quarantined, Optional.of(watch), counters);
  }

  AgentState withCounters(Counters next) {
    return new AgentState(bootRecovery, startRecovery, lastOperation, quarantined, watching, next);
  }

  /** Whether the configuration of {@code digest} is quarantined. */
  public boolean isQuarantined(String digest) {
    return quarantined.stream().anyMatch(q -> q.configDigest().equals(digest));
  }
}
