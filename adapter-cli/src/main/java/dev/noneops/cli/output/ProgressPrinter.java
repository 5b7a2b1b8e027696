package dev.noneops.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.noneops.core.config.UrlRedaction;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Renders the node's events as progress on stderr: each phase as it starts and when it ends, with
 * its duration; downloads with bytes received and the rate, at most once a second per download.
 * A failure is one {@code FAIL} line with its message, at the step that failed; the steps around
 * it end with an {@code end} line naming that step.
 * With {@code --json} each event is one JSON line instead (NDJSON), for tools that follow along.
 * This is the output when stderr is not a terminal, a log (the agent's daemon writes to the
 * journal): the URLs in it are redacted ({@link UrlRedaction}); a terminal's live progress shows
 * them in full to the operator at the node.
 */
public final class ProgressPrinter implements NodeEvents {
  private static final Duration DOWNLOAD_LINE_INTERVAL = Duration.ofSeconds(1);

  private final PrintWriter err;
  private final boolean json;
  private final Map<String, Instant> firstProgress = new HashMap<>();
  private final Map<String, Instant> lastPrinted = new HashMap<>();

  public ProgressPrinter(PrintWriter err, boolean json) {
    this.err = Objects.requireNonNull(err, "err");
    this.json = json;
  }

  @Override
  public synchronized void onEvent(NodeEvent event) {
    try {
      if (json) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("at", event.at().toString());
        line.put("task", event.task());
        line.put("kind", event.kind().name());
        line.put("durationMs", event.duration().toMillis());
        event.error().ifPresent(e -> line.put("error", UrlRedaction.redact(e)));
        if (!event.details().isEmpty()) {
          Map<String, String> details = new LinkedHashMap<>();
          event.details().forEach((k, v) -> details.put(k, UrlRedaction.redact(v)));
          line.put("details", details);
        }
        err.println(Json.MAPPER
            .writer()
            .without(SerializationFeature.INDENT_OUTPUT)
            .writeValueAsString(line));
      } else {
        String text = text(event);
        if (text != null) {
          err.println(UrlRedaction.redact(text));
        }
      }
      err.flush();
    } catch (RuntimeException | JsonProcessingException e) {
      // progress must never break the operation it reports on
    }
  }

  private String text(NodeEvent e) {
    return switch (e.kind()) {
      case STARTED -> "  ... " + e.task();
      case COMPLETED -> {
        firstProgress.remove(e.task());
        lastPrinted.remove(e.task());
        yield "  ok  " + e.task() + " (" + seconds(e.duration()) + ")";
      }
      case FAILED ->
        "  FAIL " + e.task() + " (" + seconds(e.duration()) + "): " + e.error().orElse("failed");
      case ABORTED ->
        "  end  " + e.task() + " (" + seconds(e.duration()) + "): because "
            + e.details().getOrDefault("failedTask", "a step") + " failed";
      case PROGRESS -> progress(e);
    };
  }

  private String progress(NodeEvent e) {
    Map<String, String> d = e.details();
    Instant first = firstProgress.computeIfAbsent(e.task(), t -> e.at());
    Instant last = lastPrinted.get(e.task());
    long received = parse(d.get("received"));
    long total = parse(d.get("total"));
    boolean finished = total > 0 && received >= total;
    if (last != null
        && !finished
        && Duration.between(last, e.at()).compareTo(DOWNLOAD_LINE_INTERVAL) < 0) {
      return null;
    }
    lastPrinted.put(e.task(), e.at());
    if (received < 0) {
      return "  ... " + e.task() + " " + d;
    }
    Duration elapsed = Duration.between(first, e.at());
    String size = total > 0 ? mib(received) + " / " + mib(total) : mib(received);
    if (elapsed.compareTo(DownloadBar.MEASURABLE) < 0) {
      return "  ... " + e.task() + ": " + size; // too soon for a rate
    }
    return "  ... " + e.task() + ": " + size + " at "
        + String.format(
            Locale.ROOT, "%.1f MiB/s", received / 1048576.0 / (elapsed.toMillis() / 1000.0));
  }

  /** A duration the way the CLI prints it: {@code 0.42 s}, {@code 12.3 s}, {@code 2 min 5 s}. */
  public static String seconds(Duration d) {
    long ms = d.toMillis();
    if (ms < 10_000) {
      return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }
    if (ms < 120_000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
    return (ms / 60_000) + " min " + (ms % 60_000) / 1000 + " s";
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
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
