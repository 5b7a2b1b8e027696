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
    out.printf("    %s %s (%s)%n", ok ? "=> OK:" : "=> FAILED:", outcome, seconds(took));
    out.flush();
    return ok;
  }

  /** Whether every step ran and succeeded (not when the output was closed before the end). */
  boolean allOk() {
    return !outputClosed && results.stream().allMatch(Result::ok);
  }

  /** The summary table: step, outcome, duration. */
  void summary(String title) {
    int nameWidth =
        Math.max(4, results.stream().mapToInt(r -> r.name().length()).max().orElse(4));
    int outcomeWidth = Math.min(
        70,
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
      String outcome = r.outcome().length() > outcomeWidth
          ? r.outcome().substring(0, outcomeWidth - 3) + "..."
          : r.outcome();
      out.printf(
          "%-4d  %-" + nameWidth + "s   %-6s   %-" + outcomeWidth + "s   %9s%n",
          r.number(),
          r.name(),
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

  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
  }
}
