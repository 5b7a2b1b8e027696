package dev.noneops.core.node;

import java.time.Duration;

/** A unit did not become ready within its bounded wait. */
public final class ReadinessTimeoutException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final String unit;
  private final Duration waited;

  public ReadinessTimeoutException(String unit, String condition, Duration waited, String lastSeen) {
    super(unit + " did not become ready (" + condition + ") after waiting " + format(waited) + "; last seen: " + lastSeen);
    this.unit = unit;
    this.waited = waited;
  }

  public String unit() {
    return unit;
  }

  public Duration waited() {
    return waited;
  }

  static String format(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? (millis / 1000) + "s" : String.format(java.util.Locale.ROOT, "%.3fs", millis / 1000.0);
  }
}
