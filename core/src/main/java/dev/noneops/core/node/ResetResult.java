package dev.noneops.core.node;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Node#reset()} did: whether a node was there, the teardown's report (everything
 * removed and everything kept, with why), and what it removed of the host's networking (LocalDNS's
 * interface).
 */
public record ResetResult(boolean wasPresent, TeardownResult report, List<String> hostCleanup) {
  public ResetResult {
    Objects.requireNonNull(report, "report");
    hostCleanup = List.copyOf(hostCleanup);
  }

  /** Whether nothing blocks the reset. */
  public boolean complete() {
    return report.complete();
  }
}
