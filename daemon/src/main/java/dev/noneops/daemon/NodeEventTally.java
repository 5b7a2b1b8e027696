package dev.noneops.daemon;

import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.ports.metrics.AgentMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Counts what the nodes' events say: bytes downloaded (the last {@code received} of each
 * download task that completed; verified unless it warned it was installed unverified), kept
 * until the next state write adds them, and switch-overs timed from the stack's stop to its
 * start on the other version.
 */
final class NodeEventTally implements NodeEvents {
  private final Map<String, Long> received = new HashMap<>();
  private final Set<String> unverified = new HashSet<>();
  private long pendingDownloaded;
  private long pendingVerified;
  private Optional<Instant> switchStarted = Optional.empty();
  private volatile Optional<Duration> lastSwitchOver = Optional.empty();
  private volatile AgentMetrics sink = AgentMetrics.NONE;

  /** Sends each switch-over's duration to {@code sink} as well. */
  void reportTo(AgentMetrics sink) {
    this.sink = sink;
  }

  @Override
  public synchronized void onEvent(NodeEvent event) {
    String task = event.task();
    if (task.startsWith("download-")) {
      switch (event.kind()) {
        case PROGRESS -> {
          String r = event.details().get("received");
          if (r != null) {
            try {
              received.put(task, Long.parseLong(r));
            } catch (NumberFormatException e) {
              // not a count: ignored
            }
          }
          if (event.details().containsKey("warning")) {
            unverified.add(task);
          }
        }
        case COMPLETED -> {
          long bytes = received.getOrDefault(task, 0L);
          pendingDownloaded += bytes;
          if (!unverified.contains(task)) {
            pendingVerified += bytes;
          }
          received.remove(task);
          unverified.remove(task);
        }
        case FAILED, ABORTED -> {
          pendingDownloaded += received.getOrDefault(task, 0L);
          received.remove(task);
          unverified.remove(task);
        }
        default -> {}
      }
      return;
    }
    if ((task.equals("upgrade-stop-stack") || task.equals("rollback-stop-stack"))
        && event.kind() == NodeEvent.Kind.STARTED) {
      switchStarted = Optional.of(event.at());
    } else if ((task.equals("upgrade-start-target") || task.equals("rollback-start-previous"))
        && event.kind() == NodeEvent.Kind.COMPLETED
        && switchStarted.isPresent()) {
      Duration took = Duration.between(switchStarted.get(), event.at());
      switchStarted = Optional.empty();
      lastSwitchOver = Optional.of(took);
      try {
        sink.switchOver(took);
      } catch (RuntimeException e) {
        // the metrics' own to log
      }
    }
  }

  synchronized long pendingDownloaded() {
    return pendingDownloaded;
  }

  synchronized long pendingVerified() {
    return pendingVerified;
  }

  /** The bytes not yet written to the state: downloaded, verified; zero afterwards. */
  synchronized long[] takePending() {
    long[] pending = {pendingDownloaded, pendingVerified};
    pendingDownloaded = 0;
    pendingVerified = 0;
    return pending;
  }

  Optional<Duration> lastSwitchOver() {
    return lastSwitchOver;
  }
}
