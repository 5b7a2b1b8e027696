package dev.noneops.core.node;

import dev.noneops.core.node.PreflightReport.Check;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A preflight check failed, so bootstrap stopped before it changed anything. {@link #report()}
 * holds every check, the failed ones with what to do about each.
 */
public final class PreflightFailedException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final transient PreflightReport report;

  public PreflightFailedException(PreflightReport report) {
    super("preflight failed: "
        + report.failures().stream()
            .map(c -> c.name() + " (" + c.detail() + ")")
            .collect(Collectors.joining("; "))
        + "; nothing was changed (noneops preflight says what to do)");
    this.report = report;
  }

  public PreflightReport report() {
    return report;
  }

  /** The names of the checks that failed, in the order they ran. */
  public List<String> failedChecks() {
    return report.failures().stream().map(Check::name).toList();
  }
}
