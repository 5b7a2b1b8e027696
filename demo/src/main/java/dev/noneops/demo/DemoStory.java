package dev.noneops.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's narration: each step as it starts, its outcome and duration when it ends, and the
 * summary table at the end. A step that fails ends the story (later steps would only repeat the
 * failure) but the clean-up steps still run; its outcome is the first line of what went wrong, and
 * the rest is printed below the step.
 */
final class DemoStory {
  /** The columns the story's own lines fit in. */
  static final int WIDTH = 120;

  /** The widest a step's name is in the summary table. */
  private static final int NAME_WIDTH = 44;

  private final PrintWriter out;
  private final PrintWriter err;
  private final List<Result> results = new ArrayList<>();
  private int number;
  private boolean outputClosed;

  DemoStory(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /** What a step does; returns its outcome in a few words. */
  @FunctionalInterface
  interface Body {
    String run() throws Exception;
  }

  record Result(int number, String name, boolean ok, String outcome, Duration duration) {}

  /**
   * Runs a step and records it; returns whether it succeeded. Once the story's output is closed
   * (its pipe's reader gone: EPIPE, seen as {@link PrintWriter#checkError()}) no step runs any
   * more (false, said once on stderr) but the {@link #cleanUp clean-up steps}.
   */
  boolean step(String name, Body body) {
    if (outputClosed) {
      return false;
    }
    number++;
    out.printf("%n[%d] %s%n", number, name);
    if (out.checkError()) {
      outputClosed = true;
      err.println("noneops demo: its output was closed; stopping after cleaning up");
      err.flush();
      return false;
    }
    return run(name, body);
  }

  /** Runs a step that cleans up: it runs even when the story's output was closed. */
  boolean cleanUp(String name, Body body) {
    number++;
    out.printf("%n[%d] %s%n", number, name);
    out.flush();
    return run(name, body);
  }

  private boolean run(String name, Body body) {
    long start = System.nanoTime();
    boolean ok;
    String outcome;
    try {
      outcome = body.run();
      ok = true;
    } catch (Exception | AssertionError e) {
      ok = false;
      outcome = e.getMessage() == null
          ? e.getClass().getSimpleName()
          : e.getMessage().lines().findFirst().orElse("");
      if (e.getMessage() != null) {
        e.getMessage().lines().skip(1).forEach(l -> out.println("      | " + l));
      }
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    results.add(new Result(number, name, ok, outcome, took));
    String said = (ok ? "=> OK: " : "=> FAILED: ") + outcome + " (" + seconds(took) + ")";
    List<String> lines = wrap(said, WIDTH - 4);
    out.println("    " + lines.get(0));
    lines.stream().skip(1).forEach(l -> out.println("         " + l));
    out.flush();
    return ok;
  }

  /** Whether every step ran and succeeded (not when the output was closed before the end). */
  boolean allOk() {
    return !outputClosed && results.stream().allMatch(Result::ok);
  }

  /**
   * The summary table, {@value #WIDTH} columns at most: step, outcome, duration; a step's name and
   * outcome cut short ("...") where they do not fit (each was printed whole as its step ran).
   */
  void summary(String title) {
    int nameWidth = Math.min(
        NAME_WIDTH,
        Math.max(4, results.stream().mapToInt(r -> r.name().length()).max().orElse(4)));
    int outcomeWidth = Math.min(
        WIDTH - (6 + nameWidth + 3 + 6 + 3 + 3 + 9),
        Math.max(7, results.stream().mapToInt(r -> r.outcome().length()).max().orElse(7)));
    String rule = "-".repeat(6 + nameWidth + 3 + 6 + 3 + outcomeWidth + 3 + 9);
    out.println();
    out.println(title);
    out.println(rule);
    out.printf(
        "%-4s  %-" + nameWidth + "s   %-6s   %-" + outcomeWidth + "s   %9s%n",
        "#",
        "step",
        "result",
        "outcome",
        "duration");
    out.println(rule);
    Duration total = Duration.ZERO;
    for (Result r : results) {
      String outcome = cut(r.outcome(), outcomeWidth);
      out.printf(
          "%-4d  %-" + nameWidth + "s   %-6s   %-" + outcomeWidth + "s   %9s%n",
          r.number(),
          cut(r.name(), nameWidth),
          r.ok() ? "ok" : "FAILED",
          outcome,
          seconds(r.duration()));
      total = total.plus(r.duration());
    }
    out.println(rule);
    out.printf(
        "%s: %d steps, %d failed, %s in all%n",
        allOk() ? "SUCCESS" : "FAILURE",
        results.size(),
        results.stream().filter(r -> !r.ok()).count(),
        seconds(total));
    out.flush();
  }

  /** {@code text}, or its start and "..." in {@code width} characters when it is longer. */
  private static String cut(String text, int width) {
    return text.length() > width ? text.substring(0, width - 3) + "..." : text;
  }

  /**
   * {@code text} in lines of at most {@code width} characters, broken between words (a word longer
   * than a line stays whole); the lines after the first are to be indented more by the caller.
   */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      int limit = lines.isEmpty() ? width : width - 5;
      if (line.length() > 0 && line.length() + 1 + word.length() > limit) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
  }
}
