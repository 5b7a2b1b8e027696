package dev.noneops.core.node.internal.preflight;

import java.io.IOException;

/**
 * One thing bootstrap, apply and upgrade rely on, looked at without changing anything: a verdict
 * (pass, warn or fail) with what was found and what to do about it.
 */
public interface PreflightCheck {
  /** The check's name as the report lists it, e.g. {@code cgroup-v2}. */
  public String name();

  public CheckOutcome run() throws IOException;

  public default CheckOutcome ok(String detail) {
    return new CheckOutcome(name(), CheckOutcome.Severity.OK, detail, "");
  }

  public default CheckOutcome warn(String detail, String remedy) {
    return new CheckOutcome(name(), CheckOutcome.Severity.WARN, detail, remedy);
  }

  public default CheckOutcome fail(String detail, String remedy) {
    return new CheckOutcome(name(), CheckOutcome.Severity.FAIL, detail, remedy);
  }
}
