package dev.noneops.benchmarks.e2e;

import dev.noneops.testkit.sandbox.SystemdSandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row 4: wall time and peak RSS of {@code bin/noneops status} on a sandboxed real systemd, against
 * {@code systemctl is-active} of the same three units; both run inside the sandbox through
 * {@code nsenter} and are measured by GNU {@code /usr/bin/time -v}. Interleaved.
 *
 * <p>Usage: {@code StatusBenchmark <section.md> <repository root> [runs]}.
 */
public final class StatusBenchmark {
  static final List<String> UNITS = List.of("localdns.service", "containerd.service", "kubelet.service");
  private static final Pattern WALL = Pattern.compile("Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (?:(\\d+):)?(\\d+):([\\d.]+)");
  private static final Pattern RSS = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");

  private StatusBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    Path repo = Path.of(args[1]).toAbsolutePath();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    if (runs < 1 || runs > 100) {
      throw new IllegalArgumentException("runs must be within 1..100: " + runs);
    }
    Samples oursWall = new Samples("ms");
    Samples oursRss = new Samples("MB");
    Samples baseWall = new Samples("ms");
    Samples baseRss = new Samples("MB");
    String statusOut;
    Duration boot;
    try (SystemdSandbox sandbox = SystemdSandbox.boot("bench-status")) {
      boot = sandbox.bootTime();
      List<String> enter = List.of("nsenter", "--target", Long.toString(sandbox.pid()), "--mount", "--uts", "--ipc", "--pid", "--root",
          "--wd", "--", "/usr/bin/time", "-v");
      List<String> ours = new ArrayList<>(enter);
      ours.addAll(List.of("env", "NONEOPS_NO_REBUILD=1", repo.resolve("bin/noneops").toString(), "status"));
      List<String> baseline = new ArrayList<>(enter);
      baseline.add("systemctl");
      baseline.add("is-active");
      baseline.addAll(UNITS);
      statusOut = Shell.run(ours, Duration.ofMinutes(2)).out().strip();
      for (int i = 0; i < runs; i++) {
        measure(ours, oursWall, oursRss);
        measure(baseline, baseWall, baseRss);
      }
    }
    boolean wallOk = oursWall.median() <= 200;
    boolean rssOk = oursRss.max() <= 80;
    new Section()
        .heading("4. `noneops status`: wall time and peak memory")
        .paragraph("A systemd booted in the sandbox of DESIGN section 11 (booted in " + boot.toMillis() + " ms); no node is installed, so "
            + "both commands ask systemd about three unknown units (`status` needs no configuration). Both run inside the "
            + "sandbox via `nsenter` under GNU `/usr/bin/time -v` (wall clock and maximum RSS of the command and its children: "
            + "for noneops the `bin/noneops` bash launcher plus the JVM). Interleaved, " + runs + " runs each. "
            + "`noneops status` printed: `" + statusOut.replace('\n', ' ').replace("|", "\\|") + "`.")
        .line("| figure | noneops status | baseline (systemctl is-active, 3 units) | ratio | goal |")
        .line("|---|---|---|---|---|")
        .line("| wall time | " + oursWall.summary() + " | " + baseWall.summary() + " | " + Samples.ratio(oursWall, baseWall) + " | ≤ 200 ms median: **"
            + (wallOk ? "met" : "missed") + "** |")
        .line("| peak RSS | " + oursRss.summary() + " | " + baseRss.summary() + " | " + Samples.ratio(oursRss, baseRss) + " | ≤ 80 MB: **"
            + (rssOk ? "met" : "missed") + "** |")
        .line("")
        .writeTo(sectionFile);
  }

  private static void measure(List<String> command, Samples wall, Samples rss) throws Exception {
    Shell.Result r = Shell.run(command, Duration.ofMinutes(2));
    Matcher w = WALL.matcher(r.err());
    Matcher m = RSS.matcher(r.err());
    if (!w.find() || !m.find()) {
      throw new IllegalStateException(String.join(" ", command) + " printed no /usr/bin/time -v report: " + r.err().strip());
    }
    double hours = w.group(1) == null ? 0 : Double.parseDouble(w.group(1));
    double millis = ((hours * 60 + Double.parseDouble(w.group(2))) * 60 + Double.parseDouble(w.group(3))) * 1000;
    wall.add(millis);
    rss.add(Long.parseLong(m.group(1)) / 1024.0);
  }
}
