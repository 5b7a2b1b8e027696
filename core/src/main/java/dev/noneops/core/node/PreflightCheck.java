package dev.noneops.core.node;

import dev.noneops.core.node.PreflightReport.Check;
import java.io.IOException;

/**
 * One thing bootstrap, apply and upgrade rely on, looked at without changing anything: a verdict
 * (pass, warn or fail) with what was found and what to do about it.
 */
interface PreflightCheck {
  /** The check's name as the report lists it, e.g. {@code cgroup-v2}. */
  String name();

  Check run() throws IOException;

  default Check ok(String detail) {
    return new Check(name(), PreflightReport.Verdict.OK, detail, "");
  }

  default Check warn(String detail, String remedy) {
    return new Check(name(), PreflightReport.Verdict.WARN, detail, remedy);
  }

  default Check fail(String detail, String remedy) {
    return new Check(name(), PreflightReport.Verdict.FAIL, detail, remedy);
  }
}
