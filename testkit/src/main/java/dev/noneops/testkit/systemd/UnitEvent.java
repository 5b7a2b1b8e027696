package dev.noneops.testkit.systemd;

import java.time.Instant;

/**
 * Something that happened to a unit in the simulated systemd, in order: {@code started},
 * {@code stopped}, {@code failed}, {@code reset-failed}, {@code condition-failed}.
 */
public record UnitEvent(Instant at, String unit, String event) {
  @Override
  public String toString() {
    return unit + " " + event;
  }
}
