package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.TeardownReport;
import dev.noneops.core.node.TeardownReport.Action;
import dev.noneops.core.node.TeardownReport.Kept;
import dev.noneops.core.node.TeardownReport.Reason;
import dev.noneops.core.node.TeardownReport.Removed;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/** Collects a {@link TeardownReport} while the steps run, logging each item as it is added. */
public final class ReportBuilder {
  private final Logger log;
  private final List<Removed> removed = new ArrayList<>();
  private final List<Kept> kept = new ArrayList<>();

  public ReportBuilder(Logger log) {
    this.log = log;
  }

  public void removed(Action action, Object subject, String detail) {
    Removed item = new Removed(action, String.valueOf(subject), detail);
    removed.add(item);
    log.atInfo()
        .addKeyValue("action", action)
        .addKeyValue("subject", item.subject())
        .addKeyValue("detail", detail)
        .log("teardown");
  }

  public void removed(Action action, Object subject) {
    removed(action, subject, "");
  }

  public void kept(Reason reason, Object subject, String detail) {
    Kept item = new Kept(reason, String.valueOf(subject), detail);
    kept.add(item);
    var event = reason.blocksCompletion() ? log.atWarn() : log.atInfo();
    event
        .addKeyValue("kept", item.subject())
        .addKeyValue("reason", reason)
        .addKeyValue("detail", detail)
        .log("teardown kept");
  }

  public void failed(Object subject, String operation, Exception error) {
    kept(Reason.FAILED, subject, operation + ": " + describe(error));
  }

  /** Whether anything blocking completion was reported so far. */
  public boolean hasBlocking() {
    return kept.stream().anyMatch(k -> k.reason().blocksCompletion());
  }

  public TeardownReport build() {
    return new TeardownReport(removed, kept);
  }

  public static String describe(Throwable error) {
    String message = error.getMessage();
    return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
  }
}
