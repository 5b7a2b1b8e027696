package dev.noneops.core.node;

import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.Locale;

/** A systemd job on one of the node's units did not end {@code done}. */
public final class UnitJobException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final String unit;
  private final String operation;
  private final JobResult result;

  public UnitJobException(String unit, String operation, JobResult result, UnitStatus status) {
    super(operation + " " + unit + ": job " + result.name().toLowerCase(Locale.ROOT)
        + " (unit " + status.active().name().toLowerCase(Locale.ROOT) + "/" + status.sub()
        + (status.result().isEmpty() ? "" : ", result " + status.result()) + ")");
    this.unit = unit;
    this.operation = operation;
    this.result = result;
  }

  public String unit() {
    return unit;
  }

  public String operation() {
    return operation;
  }

  public JobResult result() {
    return result;
  }
}
