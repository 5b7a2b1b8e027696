package dev.noneops.benchmarks.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row 13: the crash-point suite's cost as operations are added, read from the lines the suite
 * prints for each step of its exploration ({@code crash-point step: <name>; points N; new disks
 * D; ms T}, in the log of {@code mvn -Dtest=CrashPointSuiteTest} that bin/benchmarks passes): each
 * step's crash points, the distinct disks it checked for the first time and its wall time, then
 * the cumulative curve of time over crash points.
 *
 * <p>Usage: {@code CrashPointCurveBenchmark <section.md> <suite log>}.
 */
public final class CrashPointCurveBenchmark {
  private static final Pattern STEP =
      Pattern.compile("crash-point step: (.+); points (\\d+); new disks (\\d+); ms (\\d+)");

  private CrashPointCurveBenchmark() {}

  /** One step as the suite printed it. */
  record Step(String name, long points, long newDisks, long millis) {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    String log = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8);
    List<Step> steps = new ArrayList<>();
    Matcher m = STEP.matcher(log);
    while (m.find()) {
      steps.add(new Step(
          m.group(1),
          Long.parseLong(m.group(2)),
          Long.parseLong(m.group(3)),
          Long.parseLong(m.group(4))));
    }
    if (steps.isEmpty()) {
      throw new IllegalStateException("the suite's log has no 'crash-point step:' line");
    }
    Section section = new Section()
        .heading("13. Cost curve: the crash-point suite by operation")
        .paragraph(
            "`CrashPointSuiteTest` (`mvn -o -pl acceptance-tests -am test -Dtest=CrashPointSuiteTest`), its "
                + "exploration step by step as the suite printed it: every crash point of each operation (a later operation from "
                + "where its mutating calls first differ from the first one's), then every distinct recovery crashed at each of "
                + "its crash points. New disks: the distinct surviving disks the step checked for the first time (each is booted "
                + "and checked once, however many crash points leave it). Wall time on "
                + Runtime.getRuntime().availableProcessors()
                + " CPUs, crash points run in parallel.")
        .line("| step | crash points | new distinct disks | wall time | per crash point |")
        .line("|---|---|---|---|---|");
    CostCurve cumulative = new CostCurve("crash points", "crash point", "ms");
    long points = 0;
    long millis = 0;
    for (Step s : steps) {
      section.line("| " + s.name() + " | " + String.format(Locale.ROOT, "%,d", s.points()) + " | "
          + s.newDisks() + " | " + s.millis() + " ms | "
          + (s.points() == 0
              ? "—"
              : String.format(Locale.ROOT, "%.2f ms", (double) s.millis() / s.points()))
          + " |");
      points += s.points();
      millis += s.millis();
      Samples total = new Samples("ms");
      total.add(millis);
      if (s.points() > 0) {
        cumulative.add(points, total);
      }
    }
    section.line("").paragraph("As the steps add up (one run each, so no spread):");
    cumulative.table("after each step").forEach(section::line);
    section
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs when the table was written: " + LoadAverage.oneMinute()
            + LoadAverage.verdict(LoadAverage.oneMinute()) + ".")
        .writeTo(sectionFile);
  }
}
