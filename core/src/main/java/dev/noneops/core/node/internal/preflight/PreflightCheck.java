package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.PreflightReport;
import dev.noneops.core.node.PreflightReport.Check;
import java.io.IOException;

/**
 * One thing bootstrap, apply and upgrade rely on, looked at without changing anything: a verdict
 * (pass, warn or fail) with what was found and what to do about it.
 */
public interface PreflightCheck {
  /** The check's name as the report lists it, e.g. {@code cgroup-v2}. */
  public String name();

  public Check run() throws IOException;

  public default Check ok(String detail) {
    return new Check(name(), PreflightReport.Verdict.OK, detail, "");
  }

  public default Check warn(String detail, String remedy) {
    return new Check(name(), PreflightReport.Verdict.WARN, detail, remedy);
  }

  public default Check fail(String detail, String remedy) {
    return new Check(name(), PreflightReport.Verdict.FAIL, detail, remedy);
  }
}
