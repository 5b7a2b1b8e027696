package dev.noneops.core.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** A logger that keeps every line, as {@code LEVEL message}, for a test to read the journal. */
public final class RecordingLog extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;

  private final List<String> lines = new CopyOnWriteArrayList<>();

  public RecordingLog() {
    this.name = "recording";
  }

  public List<String> lines() {
    return List.copyOf(lines);
  }

  public List<String> errors() {
    return lines.stream().filter(l -> l.startsWith("ERROR ")).toList();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
    lines.add(level + " " + MessageFormatter.basicArrayFormat(messagePattern, arguments));
  }

  @Override
  public boolean isTraceEnabled() {
    return false;
  }

  @Override
  public boolean isDebugEnabled() {
    return false;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }
}
