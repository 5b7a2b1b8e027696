package dev.noneops.daemon;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.daemon.internal.UnitWatch;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.metrics.AgentFigures;
import dev.noneops.ports.metrics.AgentMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * The daemon's figures ({@link AgentFigures}): what it recorded (operations by kind and outcome,
 * the quarantined target, bytes downloaded and verified), the layout's versions, the stack's
 * units' states, the last tick, the Machine's repaves and the last switch-over; published to the
 * metrics the daemon reports to at its start and after every tick.
 */
final class DaemonFigures {
  private final HostPorts ports;
  private final Layout layout;
  private final UnitWatch units;
  private final Supplier<Optional<long[]>> repaveCounters;
  private final Logger log;
  private final DaemonJournal journal;
  private volatile Optional<Instant> lastTick = Optional.empty();

  /**
   * @param repaveCounters the Machine's repave counters as last seen (asked, acknowledged), when
   *     the daemon follows one
   */
  DaemonFigures(
      HostPorts ports,
      Layout layout,
      UnitWatch units,
      Supplier<Optional<long[]>> repaveCounters,
      Logger log,
      DaemonJournal journal) {
    this.ports = ports;
    this.layout = layout;
    this.units = units;
    this.repaveCounters = repaveCounters;
    this.log = log;
    this.journal = journal;
  }

  /** A tick ended {@code at}. */
  void ticked(Instant at) {
    lastTick = Optional.of(at);
  }

  /** The daemon's figures now: what it recorded, the layout's versions and the units' states. */
  AgentFigures now() {
    AgentState s = journal.read();
    Optional<String> active = Optional.empty();
    List<String> installed = new ArrayList<>();
    try {
      if (ports.files().lstat(layout.current()).map(FileMeta::isSymlink).orElse(false)) {
        Path name = Path.of(ports.files().readLink(layout.current())).getFileName();
        active = Optional.ofNullable(name).map(Path::toString);
      }
      if (ports.files().exists(layout.root())) {
        for (String entry : ports.files().list(layout.root())) {
          if (!entry.startsWith(".") && ports.files().exists(layout.manifest(entry))) {
            installed.add(entry);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      log.debug("cannot read the layout's versions: {}", DaemonJournal.message(e));
    }
    installed.sort(null);
    Map<String, Boolean> unitsActive = new LinkedHashMap<>();
    Map<String, String> seen = units.states();
    for (String unit : HostPaths.STACK_UNITS) {
      unitsActive.put(unit, "active".equals(seen.get(unit)));
    }
    Map<AgentFigures.Operation, Long> operations = new HashMap<>();
    s.counters()
        .operations()
        .forEach((operation, outcomes) -> outcomes.forEach(
            (outcome, n) -> operations.put(new AgentFigures.Operation(operation, outcome), n)));
    Optional<long[]> repave = repaveCounters.get();
    return new AgentFigures(
        active,
        installed,
        unitsActive,
        operations,
        s.quarantined().stream().map(AgentState.Quarantine::targetVersion).findFirst(),
        lastTick,
        s.counters().lastSuccess(),
        repave.map(r -> OptionalLong.of(r[0])).orElse(OptionalLong.empty()),
        repave.map(r -> OptionalLong.of(r[1])).orElse(OptionalLong.empty()),
        s.counters().bytesDownloaded() + journal.tally().pendingDownloaded(),
        s.counters().bytesVerified() + journal.tally().pendingVerified(),
        journal.tally().lastSwitchOver());
  }

  /** Sends the figures to the metrics the daemon reports to, if any. */
  void publish() {
    if (journal.metrics() == AgentMetrics.NONE) {
      return;
    }
    try {
      journal.metrics().publish(now());
    } catch (RuntimeException e) {
      log.warn("cannot publish the agent's metrics: {}", DaemonJournal.message(e));
    }
  }
}
