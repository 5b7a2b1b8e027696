package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A teardown step ended with part of the node still on the host (a mount that would not unmount,
 * a process that would not die, an operation that failed). Carries the full report; the message
 * names every item that blocked completion. Running the teardown again continues where this one
 * stopped.
 */
public class TeardownIncompleteException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient TeardownResult report;

  public TeardownIncompleteException(String step, TeardownResult report) {
    super(step + " left part of the node in place: "
        + Objects.requireNonNull(report, "report").blocking().stream()
            .map(TeardownResult.Kept::toString)
            .collect(Collectors.joining("; ")));
    this.report = report;
  }

  public TeardownResult report() {
    return report;
  }
}
