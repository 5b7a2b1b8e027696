package dev.noneops.core.node.internal.preflight;

import java.util.Objects;

/**
 * One check's outcome as the check found it; the node's preflight report is made of these.
 *
 * @param name the check, e.g. {@code cgroup-v2}
 * @param severity whether it passed, warns or fails
 * @param detail what it found
 * @param remedy what to do about a warning or failure; empty when it passed
 */
public record CheckOutcome(String name, Severity severity, String detail, String remedy) {
  /** How a check came out: nothing to do, the operator should know, or the node would not work. */
  public enum Severity {
    OK,
    WARN,
    FAIL
  }

  public CheckOutcome {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(remedy, "remedy");
  }
}
