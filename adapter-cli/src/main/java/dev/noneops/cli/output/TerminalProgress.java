package dev.noneops.cli.output;

import dev.noneops.ports.events.NodeEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.Display;

/**
 * The node's events as live progress on a terminal: below the lines already printed, a block
 * redrawn in place (JLine's {@link Display}) with each running phase and a bar per download
 * (bytes, rate, time left); above it, one line per phase as it ends, with {@code ok} or {@code
 * failed} and its duration, and a failure's message on the line after. A download's task ends as
 * one line with its size and rate; its full bar stays until then, while it is verified. Bars are redrawn at most
 * ten times a second, measured on the events' own clock.
 */
public final class TerminalProgress implements LiveProgress {
  private static final Duration REDRAW_INTERVAL = Duration.ofMillis(100);
  private static final int OUTCOME_COLUMN = 52;

  private final Terminal terminal;
  private final Display display;
  private final boolean unicode;
  private final Map<String, Instant> running = new LinkedHashMap<>();
  private final Map<String, DownloadBar> downloads = new LinkedHashMap<>();
  private final Set<String> finished = new HashSet<>();
  private Instant lastDrawn = Instant.MIN;
  private boolean closed;

  /** Draws on {@code terminal}, which it closes when it is closed. */
  public TerminalProgress(Terminal terminal) {
    this.terminal = Objects.requireNonNull(terminal, "terminal");
    this.display = new Display(terminal, false);
    this.unicode = StandardCharsets.UTF_8.equals(terminal.encoding());
  }

  @Override
  public synchronized void onEvent(NodeEvent e) {
    if (closed) {
      return;
    }
    try {
      switch (e.kind()) {
        case STARTED -> {
          running.put(e.task(), e.at());
          draw(e.at(), true);
        }
        case COMPLETED -> ended(e, "ok", AttributedStyle.GREEN, List.of());
        case FAILED ->
          ended(e, "failed", AttributedStyle.RED, List.of("    " + e.error().orElse("failed")));
        case ABORTED -> ended(e, "failed", AttributedStyle.RED, List.of());
        case PROGRESS -> progress(e);
      }
    } catch (RuntimeException ex) {
      // progress must never break the operation it reports on
    }
  }

  private void ended(NodeEvent e, String outcome, int colour, List<String> after) {
    running.remove(e.task());
    DownloadBar bar = downloads.remove(e.task());
    boolean downloaded = bar != null && bar.finished();
    if (downloaded) {
      finished.add(e.task());
    }
    List<AttributedString> lines = new ArrayList<>();
    lines.add(outcomeLine(downloaded ? bar.summary() : e.task(), outcome, colour, e.duration()));
    after.forEach(line -> lines.add(new AttributedString(line)));
    printAbove(lines, e.at());
  }

  private void progress(NodeEvent e) {
    Map<String, String> d = e.details();
    long received = parse(d.get("received"));
    if (received < 0) {
      String note = d.containsKey("warning") ? "warning: " + d.get("warning") : d.toString();
      printAbove(List.of(new AttributedString("  " + e.task() + ": " + note)), e.at());
      return;
    }
    DownloadBar before = downloads.get(e.task());
    DownloadBar bar = new DownloadBar(
        e.task(),
        received,
        parse(d.get("total")),
        before == null ? e.at() : before.first(),
        e.at());
    if (bar.finished() && before == null && finished.contains(e.task())) {
      return; // a repeat of the last event of a download already shown as done
    }
    finished.remove(e.task());
    if (bar.finished() && running.containsKey(e.task())) {
      // the task's own end, after verification, prints the download's one line
      downloads.put(e.task(), bar);
      draw(e.at(), true);
      return;
    }
    if (bar.finished()) {
      downloads.remove(e.task());
      finished.add(e.task());
      printAbove(
          List.of(outcomeLine(
              bar.summary(),
              "ok",
              AttributedStyle.GREEN,
              Duration.between(bar.first(), bar.last()))),
          e.at());
      return;
    }
    downloads.put(e.task(), bar);
    draw(e.at(), before == null);
  }

  /** {@code   name ........ ok 1.23 s}, the outcome in colour where the terminal has colours. */
  private AttributedString outcomeLine(String name, String outcome, int colour, Duration took) {
    AttributedStringBuilder line = new AttributedStringBuilder().append("  ").append(name);
    int pad = Math.max(1, OUTCOME_COLUMN - line.length());
    line.append(" ".repeat(pad))
        .style(AttributedStyle.BOLD.foreground(colour))
        .append(outcome)
        .style(AttributedStyle.DEFAULT)
        .append(" ")
        .append(ProgressPrinter.seconds(took));
    return line.toAttributedString();
  }

  private void printAbove(List<AttributedString> lines, Instant now) {
    display.update(List.of(), 0);
    for (AttributedString line : lines) {
      terminal.writer().println(line.toAnsi(terminal));
    }
    draw(now, true);
  }

  private void draw(Instant now, boolean force) {
    if (!force && Duration.between(lastDrawn, now).compareTo(REDRAW_INTERVAL) < 0) {
      return;
    }
    lastDrawn = now;
    Size size = terminal.getSize();
    int columns = size.getColumns() > 0 ? size.getColumns() : 80;
    display.resize(Math.max(size.getRows(), 1), columns);
    List<AttributedString> lines = new ArrayList<>();
    running.forEach((task, since) -> {
      if (!downloads.containsKey(task)) {
        lines.add(fitted(
            new AttributedStringBuilder()
                .append("  ")
                .append(unicode ? "…" : "...")
                .append(" ")
                .append(task)
                .style(AttributedStyle.DEFAULT.faint())
                .append("  " + ProgressPrinter.seconds(Duration.between(since, now)))
                .toAttributedString(),
            columns));
      }
    });
    downloads
        .values()
        .forEach(bar -> lines.add(fitted(new AttributedString(bar.render(unicode)), columns)));
    display.update(lines, -1);
    terminal.flush();
  }

  /** One column short of the width, so a line never wraps and the redraw stays in place. */
  private static AttributedString fitted(AttributedString line, int columns) {
    return line.columnLength() < columns ? line : line.columnSubSequence(0, columns - 1);
  }

  /**
   * Redraws the block at {@code now} (a clock's time, which may run behind the events' own: never
   * drawn earlier than the last drawing), so that a running phase's time goes on between events.
   */
  public synchronized void tick(Instant now) {
    if (closed || running.isEmpty() || !now.isAfter(lastDrawn)) {
      return;
    }
    draw(now, true);
  }

  /**
   * A stream for what else writes to stderr while the block is drawn (log lines): each line it is
   * given is printed above the block, which is drawn again below it, instead of being written
   * into the block. After {@link #close()}, lines go straight to the terminal.
   */
  public PrintStream stderrAbove() {
    return new PrintStream(new LinesAbove(), true, terminal.encoding());
  }

  private synchronized void above(String line) {
    if (closed) {
      terminal.writer().println(line);
      terminal.flush();
      return;
    }
    printAbove(
        List.of(new AttributedString(line)),
        lastDrawn.equals(Instant.MIN) ? Instant.EPOCH : lastDrawn);
  }

  /** Collects bytes up to each line's end and hands the line to {@link #above}. */
  private final class LinesAbove extends OutputStream {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        String text = line.toString(terminal.encoding());
        line.reset();
        above(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
      } else {
        line.write(b);
      }
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      display.update(List.of(), 0);
      terminal.flush();
      terminal.close();
    } catch (RuntimeException | IOException e) {
      // the terminal is gone; there is nothing left to clear
    }
  }

  private static long parse(String s) {
    if (s == null) {
      return -1;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
