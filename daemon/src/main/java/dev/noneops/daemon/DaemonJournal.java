package dev.noneops.daemon;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.internal.DaemonEvents;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.metrics.AgentMetrics;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * How the daemon's parts tell what they did, and the one holder of what they share: the state
 * file (one writer at a time: the tick's thread and the Machine's), an operation's end as a log
 * line with the journal's fields, its duration to the metrics, the cluster's Events, what was
 * said once already, and whether an operation is under way (for the watchdog) since when (for
 * the metrics).
 */
final class DaemonJournal {
  /** A change to the recorded state. */
  interface Change {
    AgentState apply(AgentState state);
  }

  private final HostPorts ports;
  private final Logger log;
  private final AgentStateStore state;
  private final NodeEventTally tally = new NodeEventTally();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private volatile boolean operating;
  private volatile Instant operationStarted = Instant.EPOCH;
  private AgentMetrics metrics = AgentMetrics.NONE;
  private Optional<DaemonEvents> events = Optional.empty();

  DaemonJournal(HostPorts ports, HostPaths paths, Logger log) {
    this.ports = ports;
    this.log = log;
    this.state = new AgentStateStore(ports.files(), paths);
  }

  /** Has the operations' durations and the switch-overs go to {@code metrics}. */
  void reportTo(AgentMetrics metrics) {
    this.metrics = metrics;
    tally.reportTo(metrics);
  }

  AgentMetrics metrics() {
    return metrics;
  }

  /** Has what the daemon records go to the cluster as Events through {@code events} as well. */
  void sendEventsTo(DaemonEvents events) {
    this.events = Optional.of(events);
  }

  /** Has {@code send} send Events, when the daemon sends any. */
  void events(Consumer<DaemonEvents> send) {
    events.ifPresent(send);
  }

  /** What the nodes' events counted. */
  NodeEventTally tally() {
    return tally;
  }

  /** What the daemon has recorded. */
  AgentState read() {
    return state.read();
  }

  /** Whether work the watchdog waits for is under way: an operation, the Machine's. */
  boolean operating() {
    return operating;
  }

  /** Runs {@code work} the watchdog waits for, untimed: the Machine's. */
  void whileOperating(Runnable work) {
    operating = true;
    try {
      work.run();
    } finally {
      operating = false;
    }
  }

  /** An operation of the tick's own begins: under way, and timed from now. */
  void operationBegins() {
    operating = true;
    operationStarted = ports.clock().now();
  }

  /** The operation under way ends. */
  void operationEnds() {
    operating = false;
  }

  /** Whether {@code key} was said since the last recorded operation. */
  boolean said(String key) {
    return reported.contains(key);
  }

  /** @return whether {@code key} is said for the first time since the last recorded operation */
  boolean saying(String key) {
    return reported.add(key);
  }

  void once(String key, String message) {
    if (reported.add(key)) {
      log.error("{}; the node keeps running as it is", message);
    }
  }

  void record(String kind, String outcome, String detail) {
    reported.clear();
    AgentState.Event event = new AgentState.Event(ports.clock().now(), kind, outcome, detail);
    update(s -> s.withLastOperation(event));
    ended(event, true);
    events.ifPresent(e -> e.after(event));
  }

  /** An operation of the Machine's thread: recorded and counted, not timed. */
  void recordUntimed(AgentState.Event event) {
    reported.clear();
    update(s -> s.withLastOperation(event));
    ended(event, false);
    events.ifPresent(e -> e.after(event));
  }

  /**
   * A log line of an operation's end with its key-values, which the journal keeps as fields:
   * {@code operation} and {@code outcome} (as the metrics count them, e.g. {@code upgrade},
   * {@code rolled-back}), {@code fromVersion}, {@code toVersion}, and for a failure {@code
   * taskPath} (where it happened, e.g. {@code upgrade › upgrade-start-target}) and {@code
   * errorKind} (its type, e.g. {@code ReadinessTimeoutException}).
   */
  LoggingEventBuilder ending(
      Level level,
      String kind,
      String outcome,
      Optional<String> from,
      Optional<String> to,
      Optional<? extends Throwable> error) {
    LoggingEventBuilder b = log.atLevel(level);
    Optional<String[]> counted = AgentState.Counters.operationOf(kind, outcome);
    if (counted.isPresent()) {
      b = b.addKeyValue("operation", counted.get()[0])
          .addKeyValue("outcome", counted.get()[1]);
    }
    if (from.isPresent()) {
      b = b.addKeyValue("fromVersion", from.get());
    }
    if (to.isPresent()) {
      b = b.addKeyValue("toVersion", to.get());
    }
    if (error.isPresent()) {
      Throwable root = error.get();
      while (root.getCause() instanceof NoneopsException inner && inner != root) {
        root = inner;
      }
      if (root instanceof NoneopsException located && located.failedAt().isPresent()) {
        b = b.addKeyValue("taskPath", located.failedAt().get());
      }
      b = b.addKeyValue("errorKind", root.getClass().getSimpleName());
    }
    return b;
  }

  /**
   * An operation's end to the metrics, with how long it ran when the daemon timed it ({@code
   * timed}: one of the tick's own, from when it began, zero for a refusal that began none); the
   * Machine's repaves, which run on their own thread, are counted in the state but not timed.
   */
  void ended(AgentState.Event event, boolean timed) {
    if (!timed) {
      return;
    }
    Instant started = operationStarted;
    operationStarted = Instant.EPOCH;
    Optional<String[]> counted = AgentState.Counters.operationOf(event.kind(), event.outcome());
    if (counted.isEmpty()) {
      return;
    }
    Duration took =
        started.equals(Instant.EPOCH) ? Duration.ZERO : Duration.between(started, event.at());
    try {
      metrics.operationEnded(counted.get()[0], counted.get()[1], took);
    } catch (RuntimeException e) {
      log.warn("cannot publish the agent's metrics: {}", message(e));
    }
  }

  /** One writer of the state file at a time: the tick's thread and the Machine's. */
  synchronized void update(Change change) {
    try {
      AgentState next = change.apply(state.read());
      long[] bytes = tally.takePending();
      state.write(next.withCounters(next.counters().withBytes(bytes[0], bytes[1])));
    } catch (IOException | RuntimeException e) {
      log.warn("cannot record the agent's state in {}: {}", state.path(), message(e));
    }
  }

  static String message(Throwable e) {
    return e instanceof NoneopsException n ? n.operatorMessage() : String.valueOf(e.getMessage());
  }
}
