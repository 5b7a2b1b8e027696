package dev.noneops.cli;

import java.io.PrintWriter;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * A logger for a process whose stderr is the systemd journal: each record is one line prefixed
 * with its syslog priority ({@code <3>} error, {@code <4>} warning, {@code <6>} info,
 * {@code <7>} debug), which journald reads as the entry's priority, so {@code journalctl -p err}
 * finds the daemon's errors. A throwable adds its message (not its stack) to the line.
 */
final class JournalLogger extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;

  private final transient PrintWriter out;
  private final Level threshold;

  JournalLogger(String name, PrintWriter out, Level threshold) {
    this.name = name;
    this.out = out;
    this.threshold = threshold;
  }

  @Override
  public boolean isTraceEnabled() {
    return enabled(Level.TRACE);
  }

  @Override
  public boolean isDebugEnabled() {
    return enabled(Level.DEBUG);
  }

  @Override
  public boolean isInfoEnabled() {
    return enabled(Level.INFO);
  }

  @Override
  public boolean isWarnEnabled() {
    return enabled(Level.WARN);
  }

  @Override
  public boolean isErrorEnabled() {
    return enabled(Level.ERROR);
  }

  private boolean enabled(Level level) {
    return level.toInt() >= threshold.toInt();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
    String message = MessageFormatter.basicArrayFormat(pattern, arguments);
    if (throwable != null) {
      message += ": " + throwable.getMessage();
    }
    String line = "<" + priority(level) + ">" + message.replace('\n', ' ');
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  static int priority(Level level) {
    return switch (level) {
      case ERROR -> 3;
      case WARN -> 4;
      case INFO -> 6;
      case DEBUG, TRACE -> 7;
    };
  }
}
