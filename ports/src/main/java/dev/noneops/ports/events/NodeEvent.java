package dev.noneops.ports.events;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A structured progress event: a task started, completed, failed or ended because a task inside
 * it failed, or reported progress. A failure is {@link Kind#FAILED} once, at the task where it
 * happened; the tasks around it end {@link Kind#ABORTED}.
 *
 * @param at when it happened
 * @param task the task's name, e.g. {@code download-kube-binaries}
 * @param kind what happened
 * @param duration how long the task ran (zero for {@link Kind#STARTED})
 * @param error the failure message for {@link Kind#FAILED}
 * @param details extra key-values (bytes received, unit names, ...); for {@link Kind#FAILED} and
 *     {@link Kind#ABORTED} {@code failedAt}, the task path of the failure ({@code start › wait-kubelet}),
 *     and for {@link Kind#ABORTED} {@code failedTask}, the task that failed
 */
public record NodeEvent(
    Instant at,
    String task,
    Kind kind,
    Duration duration,
    Optional<String> error,
    Map<String, String> details) {

  /** The kind of event. */
  public enum Kind {
    STARTED,
    COMPLETED,
    /** The task failed: the failure happened here; {@code error} is its message. */
    FAILED,
    /** The task ended because a task inside it failed; that task's {@link #FAILED} event carries the message. */
    ABORTED,
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
