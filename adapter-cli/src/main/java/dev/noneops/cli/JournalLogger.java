package dev.noneops.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.event.Level;
import org.slf4j.event.LoggingEvent;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.LoggingEventAware;

/**
 * The agent's logger. With the journal's native socket ({@link JournalSink}) each record is one
 * journal entry with fields a query can use: {@code MESSAGE}, {@code PRIORITY}, {@code
 * SYSLOG_IDENTIFIER}, and every key-value of the record as {@code NONEOPS_<KEY>} (upper case,
 * words split by underscores: {@code operation} → {@code NONEOPS_OPERATION}, {@code outcome} →
 * {@code NONEOPS_OUTCOME}, {@code fromVersion} → {@code NONEOPS_FROM_VERSION}, {@code taskPath} →
 * {@code NONEOPS_TASK_PATH}, {@code errorKind} → {@code NONEOPS_ERROR_KIND}), and the stable
 * {@code MESSAGE_ID} of its operation and outcome ({@link JournalMessageIds}); so {@code journalctl
 * -u noneops-agent NONEOPS_OUTCOME=rolled-back} finds the rollbacks. Without the socket, or when
 * a send fails (for 30 s, then the journal is tried again), each record is one line on stderr (the
 * journal of a unit) prefixed with its syslog
 * priority ({@code <3>} error, {@code <4>} warning, {@code <6>} info, {@code <7>} debug), which
 * journald reads as the entry's priority, so {@code journalctl -p err} finds the daemon's errors
 * either way. The key-values lead the message, {@code key=value}, as slf4j renders them. A
 * throwable adds its message (not its stack) to the line.
 */
final class JournalLogger extends LegacyAbstractLogger implements LoggingEventAware {
  private static final long serialVersionUID = 1L;

  /** The {@code SYSLOG_IDENTIFIER} of the agent's entries. */
  static final String IDENTIFIER = "noneops";

  private final transient PrintWriter out;
  private final Level threshold;
  private final transient Optional<JournalSink> journal;
  private transient volatile boolean journalFailed;

  /** When a send last failed ({@link System#nanoTime()}). */
  private transient volatile long journalFailedAt;

  /** How long the lines go to stderr after a failed send before the journal is tried again. */
  static final long RETRY_NANOS = 30_000_000_000L;

  JournalLogger(String name, PrintWriter out, Level threshold) {
    this(name, out, threshold, Optional.empty());
  }

  JournalLogger(String name, PrintWriter out, Level threshold, Optional<JournalSink> journal) {
    this.name = name;
    this.out = out;
    this.threshold = threshold;
    this.journal = journal;
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
    emit(level, pattern, arguments, List.of(), throwable);
  }

  @Override
  public void log(LoggingEvent event) {
    if (!enabled(event.getLevel())) {
      return;
    }
    List<KeyValuePair> pairs =
        event.getKeyValuePairs() == null ? List.of() : event.getKeyValuePairs();
    Object[] arguments = event.getArgumentArray();
    emit(event.getLevel(), event.getMessage(), arguments, pairs, event.getThrowable());
  }

  private void emit(
      Level level,
      String pattern,
      Object[] arguments,
      List<KeyValuePair> pairs,
      Throwable throwable) {
    String message = MessageFormatter.basicArrayFormat(pattern, arguments);
    if (throwable != null) {
      message += ": " + throwable.getMessage();
    }
    StringBuilder keyValues = new StringBuilder();
    for (KeyValuePair p : pairs) {
      keyValues.append(p.key).append('=').append(p.value).append(' ');
    }
    String text = (keyValues + message).replace('\n', ' ');
    if (journal.isPresent()
        && (!journalFailed || System.nanoTime() - journalFailedAt > RETRY_NANOS)) {
      try {
        journal.get().send(fields(level, text, pairs));
        journalFailed = false;
        return;
      } catch (IOException | RuntimeException e) {
        // the journal went away (journald restarting, say): this line and the next ones go to
        // stderr, as without it, and the journal is tried again a while later
        if (!journalFailed) {
          line(
              4,
              "the journal's socket cannot be reached (" + e.getMessage() + "); logging to stderr");
        }
        journalFailed = true;
        journalFailedAt = System.nanoTime();
      }
    }
    line(priority(level), text);
  }

  private void line(int priority, String text) {
    synchronized (out) {
      out.println("<" + priority + ">" + text);
      out.flush();
    }
  }

  /** The journal fields of one record. */
  static List<Map.Entry<String, String>> fields(
      Level level, String text, List<KeyValuePair> pairs) {
    List<Map.Entry<String, String>> fields = new ArrayList<>();
    fields.add(Map.entry("MESSAGE", text));
    fields.add(Map.entry("PRIORITY", Integer.toString(priority(level))));
    fields.add(Map.entry("SYSLOG_IDENTIFIER", IDENTIFIER));
    String operation = null;
    String outcome = null;
    for (KeyValuePair p : pairs) {
      String value = String.valueOf(p.value);
      if (p.key.equals("operation")) {
        operation = value;
      } else if (p.key.equals("outcome")) {
        outcome = value;
      }
      fields.add(Map.entry(fieldName(p.key), value));
    }
    if (operation != null && outcome != null) {
      JournalMessageIds.of(operation, outcome)
          .ifPresent(id -> fields.add(1, Map.entry("MESSAGE_ID", id)));
    }
    return fields;
  }

  /** {@code fromVersion} → {@code NONEOPS_FROM_VERSION}. */
  static String fieldName(String key) {
    String snake = key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replaceAll("[^A-Za-z0-9]", "_");
    return "NONEOPS_" + snake.toUpperCase(Locale.ROOT);
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
