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
 * {@code nsenter} and are measured by GNU {@code /usr/bin/time -v}. In the same interleaved loop
 * it measures the floor under {@code status}: the launcher and JVM alone ({@code -version} with
 * {@code bin/noneops}'s flags and CDS archive) and the CLI without host access
 * ({@code noneops version}), so the cost of {@code status}'s own work can be read off by
 * difference.
 *
 * <p>Usage: {@code StatusBenchmark <section.md> <repository root> [runs]}.
 */
public final class StatusBenchmark {
  static final List<String> UNITS =
      List.of("localdns.service", "containerd.service", "kubelet.service");
  private static final Pattern WALL = Pattern.compile(
      "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (?:(\\d+):)?(\\d+):([\\d.]+)");
  private static final Pattern RSS =
      Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
  private static final Pattern USER = Pattern.compile("User time \\(seconds\\): ([\\d.]+)");
  private static final Pattern SYSTEM = Pattern.compile("System time \\(seconds\\): ([\\d.]+)");

  private StatusBenchmark() {}

  /** One command measured in the loop: what it is, what it includes, and its samples. */
  private record Probe(
      String label, String includes, List<String> command, Samples wall, Samples cpu, Samples rss) {
    Probe(String label, String includes, List<String> command) {
      this(label, includes, command, new Samples("ms"), new Samples("ms"), new Samples("MB"));
    }

    String row() {
      return "| " + label + " | " + includes + " | " + wall.summary() + " | " + cpu.medianText()
          + " | " + rss.summary() + " |";
    }
  }

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    Path repo = Path.of(args[1]).toAbsolutePath();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    if (runs < 1 || runs > 100) {
      throw new IllegalArgumentException("runs must be within 1..100: " + runs);
    }
    String launcher = repo.resolve("bin/noneops").toString();
    String statusOut;
    Duration boot;
    List<Probe> probes = new ArrayList<>();
    try (SystemdSandbox sandbox = SystemdSandbox.boot("bench-status")) {
      boot = sandbox.bootTime();
      List<String> enter = sandbox.inside(List.of("/usr/bin/time", "-v"));
      Probe status = new Probe(
          "`noneops status`",
          "the launcher, the JVM, the CLI, and the host: files read through NIO (no native library), "
              + "three unit reads over one D-Bus connection",
          with(enter, "env", "NONEOPS_NO_REBUILD=1", launcher, "status"));
      Probe baseline = new Probe(
          "`systemctl is-active` (baseline)",
          "the same three units",
          with(enter, "systemctl", "is-active", UNITS.get(0), UNITS.get(1), UNITS.get(2)));
      probes.add(status);
      probes.add(baseline);
      probes.add(new Probe(
          "`noneops status --json`",
          "as `status`, the result written by Jackson",
          with(enter, "env", "NONEOPS_NO_REBUILD=1", launcher, "status", "--json")));
      probes.add(new Probe(
          "`noneops version`",
          "the launcher, the JVM and the CLI (picocli with one command); no host access",
          with(enter, "env", "NONEOPS_NO_REBUILD=1", launcher, "version")));
      probes.add(new Probe(
          "`NONEOPS_JAVA_OPTS=-version noneops version`",
          "the launcher and the JVM with `bin/noneops`'s flags "
              + "and CDS archive, started and stopped; no application code",
          with(
              enter,
              "env",
              "NONEOPS_NO_REBUILD=1",
              "NONEOPS_JAVA_OPTS=-version",
              launcher,
              "version")));
      statusOut = Shell.run(status.command(), Duration.ofMinutes(2)).out().strip();
      for (int i = 0; i < runs; i++) {
        for (Probe probe : probes) {
          measure(probe);
        }
      }
    }
    Probe status = probes.get(0);
    Probe baseline = probes.get(1);
    boolean wallOk = status.wall().median() <= 200;
    boolean rssOk = status.rss().max() <= 80;
    Section section = new Section()
        .heading("4. `noneops status`: wall time and peak memory")
        .paragraph("A systemd booted in the sandbox of DESIGN section 11 (booted in "
            + boot.toMillis() + " ms); no node is installed, so "
            + "both commands ask systemd about three unknown units (`status` needs no configuration). Every command runs inside the "
            + "sandbox via `nsenter` under GNU `/usr/bin/time -v` (wall clock, user+system CPU time and maximum RSS of the command "
            + "and its children: for noneops the `bin/noneops` bash launcher plus the JVM, with the launcher's flags and its "
            + "static CDS archive, made on the host before the sandbox booted). Interleaved, "
            + runs + " runs each. "
            + "`noneops status` printed: `" + statusOut.replace('\n', ' ').replace("|", "\\|")
            + "`.")
        .line(
            "| figure | noneops status | baseline (systemctl is-active, 3 units) | ratio | goal |")
        .line("|---|---|---|---|---|")
        .line("| wall time | " + status.wall().summary() + " | "
            + baseline.wall().summary() + " | " + Samples.ratio(status.wall(), baseline.wall())
            + " | ≤ 200 ms median: **" + (wallOk ? "met" : "missed") + "** |")
        .line("| peak RSS | " + status.rss().summary() + " | " + baseline.rss().summary() + " | "
            + Samples.ratio(status.rss(), baseline.rss()) + " | ≤ 80 MB: **"
            + (rssOk ? "met" : "missed") + "** |")
        .line("")
        .paragraph(
            "The floor under `status`, measured in the same loop: `noneops version` is the CLI without host access, and "
                + "`-version` passed through `NONEOPS_JAVA_OPTS` makes the same launcher start the same JVM (same flags, same archive) "
                + "and stop it before any application code runs. What `status` costs above `noneops version` is its own work on the host.")
        .line("| command | includes | wall time | CPU (user+sys, median) | peak RSS |")
        .line("|---|---|---|---|---|");
    for (Probe probe : probes) {
      section.line(probe.row());
    }
    section.line("").writeTo(sectionFile);
  }

  private static List<String> with(List<String> prefix, String... command) {
    List<String> all = new ArrayList<>(prefix);
    all.addAll(List.of(command));
    return all;
  }

  private static void measure(Probe probe) throws Exception {
    Shell.Result r = Shell.run(probe.command(), Duration.ofMinutes(2));
    Matcher w = WALL.matcher(r.err());
    Matcher m = RSS.matcher(r.err());
    Matcher u = USER.matcher(r.err());
    Matcher s = SYSTEM.matcher(r.err());
    if (!w.find() || !m.find() || !u.find() || !s.find()) {
      throw new IllegalStateException(String.join(" ", probe.command())
          + " printed no /usr/bin/time -v report: " + r.err().strip());
    }
    double hours = w.group(1) == null ? 0 : Double.parseDouble(w.group(1));
    double millis =
        ((hours * 60 + Double.parseDouble(w.group(2))) * 60 + Double.parseDouble(w.group(3)))
            * 1000;
    probe.wall().add(millis);
    probe.cpu().add((Double.parseDouble(u.group(1)) + Double.parseDouble(s.group(1))) * 1000);
    probe.rss().add(Long.parseLong(m.group(1)) / 1024.0);
  }
}
