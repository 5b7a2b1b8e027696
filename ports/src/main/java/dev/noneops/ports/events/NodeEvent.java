package dev.noneops.ports.events;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A structured progress event: a task started, completed or failed, or reported progress.
 *
 * @param at when it happened
 * @param task the task's name, e.g. {@code download-kube-binaries}
 * @param kind what happened
 * @param duration how long the task ran (zero for {@link Kind#STARTED})
 * @param error the failure message for {@link Kind#FAILED}
 * @param details extra key-values (bytes received, unit names, ...)
 */
public record NodeEvent(Instant at, String task, Kind kind, Duration duration, Optional<String> error, Map<String, String> details) {

  /** The kind of event. */
  public enum Kind {
    STARTED,
    COMPLETED,
    FAILED,
    PROGRESS
  }

  public NodeEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(error, "error");
    details = Map.copyOf(details);
  }
}
