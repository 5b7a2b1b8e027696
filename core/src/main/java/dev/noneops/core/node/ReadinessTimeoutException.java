package dev.noneops.core.node;

import java.time.Duration;
import java.util.Locale;

/**
 * A unit did not become ready within its bounded wait, e.g. {@code kubelet.service did not become
 * ready in 20 s (active; healthz at http://127.0.0.1:10248/healthz not answering)}: the unit, the
 * time waited and what was last seen of it.
 */
public final class ReadinessTimeoutException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final String unit;
  private final Duration waited;

  public ReadinessTimeoutException(String unit, Duration waited, String lastSeen) {
    super(unit + " did not become ready in " + format(waited) + " (" + lastSeen + ")");
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
    return millis % 1000 == 0
        ? (millis / 1000) + " s"
        : String.format(Locale.ROOT, "%.3f s", millis / 1000.0);
  }
}
