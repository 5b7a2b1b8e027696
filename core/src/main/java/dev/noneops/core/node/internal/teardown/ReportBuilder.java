package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/** Collects a {@link TeardownLog} while the steps run, logging each item as it is added. */
public final class ReportBuilder {
  private final Logger log;
  private final List<TeardownLog.Removal> removed = new ArrayList<>();
  private final List<TeardownLog.Keep> kept = new ArrayList<>();

  public ReportBuilder(Logger log) {
    this.log = log;
  }

  public void removed(TeardownAction action, Object subject, String detail) {
    TeardownLog.Removal item = new TeardownLog.Removal(action, String.valueOf(subject), detail);
    removed.add(item);
    log.atInfo()
        .addKeyValue("action", action)
        .addKeyValue("subject", item.subject())
        .addKeyValue("detail", detail)
        .log("teardown");
  }

  public void removed(TeardownAction action, Object subject) {
    removed(action, subject, "");
  }

  public void kept(KeepReason reason, Object subject, String detail) {
    TeardownLog.Keep item = new TeardownLog.Keep(reason, String.valueOf(subject), detail);
    kept.add(item);
    var event = reason.blocksCompletion() ? log.atWarn() : log.atInfo();
    event
        .addKeyValue("kept", item.subject())
        .addKeyValue("reason", reason)
        .addKeyValue("detail", detail)
        .log("teardown kept");
  }

  public void failed(Object subject, String operation, Exception error) {
    kept(KeepReason.FAILED, subject, operation + ": " + describe(error));
  }

  /** Whether anything blocking completion was reported so far. */
  public boolean hasBlocking() {
    return kept.stream().anyMatch(k -> k.reason().blocksCompletion());
  }

  public TeardownLog build() {
    return new TeardownLog(removed, kept);
  }

  public static String describe(Throwable error) {
    String message = error.getMessage();
    return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
  }
}
