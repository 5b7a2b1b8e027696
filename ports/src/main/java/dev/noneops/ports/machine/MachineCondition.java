package dev.noneops.ports.machine;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One of {@code status.conditions}, as Kubernetes conditions are: a type ({@code Repaved}), a
 * status, a reason in CamelCase, a message for people, and when the status last changed (in whole
 * seconds, as the API server keeps it: a finer time is truncated).
 */
public record MachineCondition(
    String type, Status status, String reason, String message, Instant lastTransitionTime) {

  /** The condition the node reports about its last repave: False/Pending while one runs, True/Succeeded after. */
  public static final String REPAVED = "Repaved";

  /** {@code True}, {@code False} or {@code Unknown}. */
  public enum Status {
    TRUE("True"),
    FALSE("False"),
    UNKNOWN("Unknown");

    private final String word;

    Status(String word) {
      this.word = word;
    }

    public String word() {
      return word;
    }

    /** The status a word names; anything but {@code True} or {@code False} is {@link #UNKNOWN}. */
    public static Status fromWord(String word) {
      for (Status status : values()) {
        if (status.word.equals(word)) {
          return status;
        }
      }
      return UNKNOWN;
    }
  }

  public MachineCondition {
    if (type == null || type.isEmpty()) {
      throw new IllegalArgumentException("a condition needs a type");
    }
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    lastTransitionTime = lastTransitionTime.truncatedTo(ChronoUnit.SECONDS);
  }
}
