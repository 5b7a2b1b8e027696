package dev.noneops.core.node.internal.preflight;

import dev.noneops.core.node.internal.stack.ForeignStackDetector;
import java.io.IOException;
import java.util.List;

/** The host has no kubelet or containerd of its own (see {@link ForeignStackDetector}). */
public final class ForeignStackCheck implements PreflightCheck {
  private final ForeignStackDetector detector;

  public ForeignStackCheck(ForeignStackDetector detector) {
    this.detector = detector;
  }

  @Override
  public String name() {
    return "foreign-stack";
  }

  @Override
  public CheckOutcome run() throws IOException {
    List<String> findings = detector.findings();
    return findings.isEmpty()
        ? ok("no kubelet or containerd of the host's own")
        : fail(
            String.join("; ", findings),
            "stop, disable and remove the host's own kubelet and containerd (their packages,"
                + " units and binaries), or use a clean host");
  }
}
