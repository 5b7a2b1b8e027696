package dev.noneops.benchmarks.e2e;

import dev.noneops.core.layout.HostPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Row 4's section of docs/benchmarks.md, from {@link StatusBenchmark}'s probes and setting. */
final class StatusSection {
  private final int runs;
  private final StatusBenchmark.Probes probes;

  /** What the row ran on: the sandbox, the node, the daemon, the CLI's answers, the load. */
  record Setting(
      Duration boot,
      String links,
      String bootstrapLast,
      String containerd,
      String daemonBefore,
      String daemonAfter,
      Optional<String> noDirect,
      Shell.Result status,
      Shell.Result check,
      String loadBefore) {}

  StatusSection(int runs, StatusBenchmark.Probes probes) {
    this.runs = runs;
    this.probes = probes;
  }

  void write(Path file, Setting s) throws IOException {
    Section section = new Section()
        .heading("4. `noneops status` and `noneops allocation-launch-check` on an installed node:"
            + " wall time and peak memory")
        .paragraph(node(s))
        .paragraph(method())
        .paragraph(direct(s.noDirect()))
        .paragraph("`noneops status` printed (" + exit(s.status()) + "): `"
            + inline(s.status().out()) + "`. `noneops allocation-launch-check` printed ("
            + exit(s.check()) + "): `" + inline(s.check().out()) + "`.")
        .line("| command | figure | measured | baseline | ratio | goal |")
        .line("|---|---|---|---|---|---|");
    goalRows(section, probes.status(), probes.statusBaseline());
    probes.statusDirect().ifPresent(p -> goalRows(section, p, probes.statusBaseline()));
    goalRows(section, probes.check(), probes.checkBaseline());
    probes.checkDirect().ifPresent(p -> goalRows(section, p, probes.checkBaseline()));
    section
        .line("")
        .paragraph("Baselines: `status`'s is `systemctl is-active` of the three units; "
            + "`allocation-launch-check`'s adds kubelet's healthz fetched by `curl` "
            + "(the units active and kubelet answering; it does not check `current` or the upgrade journal). "
            + "The floor under the commands, measured in the same loop: `noneops version` is the CLI without host access, "
            + "`-version` passed through `NONEOPS_JAVA_OPTS` makes the same launcher start the same JVM (same flags, same "
            + "archive) and stop it before any application code runs, `sha256sum` of the active version's files is the "
            + "launch check's verification done natively, and `/usr/bin/time -v true` is what the harness adds to every "
            + "row. What a command costs above `noneops version` is its own work on the host.")
        .line("| command | includes | wall time | CPU (user+sys, median) | peak RSS | exit codes |")
        .line("|---|---|---|---|---|---|");
    for (Probe probe : probes.all()) {
      section.line(probe.row());
    }
    section
        .line("")
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row's measurements started and ended: " + s.loadBefore() + " and "
            + LoadAverage.oneMinute() + LoadAverage.verdict(s.loadBefore()) + ".")
        .writeTo(file);
  }

  private static String node(Setting s) {
    return "A systemd booted in [the sandbox](guides/tests.md#the-sandboxed-systemd) (booted in "
        + s.boot().toMillis()
        + " ms); a node bootstrapped there through the CLI, as an operator installs it: `java -jar noneops.jar "
        + "bootstrap --no-kernel-modules`, the CLI jar copied into the sandbox and run as its own JVM, as the demo does ("
        + s.links() + "), with Debian's containerd " + s.containerd()
        + " and runc and the kubelet and CoreDNS stand-ins from a loopback artifact server. Bootstrap's last line: `"
        + inline(s.bootstrapLast()) + "`. `systemctl is-active` found "
        + String.join(", ", HostPaths.STACK_UNITS) + " and " + HostPaths.AGENT_UNIT
        + " (the daemon, `noneops daemon`) active " + StatusBenchmark.SETTLE.toSeconds()
        + " s after bootstrap, before the first run (daemon " + s.daemonBefore()
        + ") and after the last (daemon " + s.daemonAfter()
        + (s.daemonBefore().equals(s.daemonAfter())
            ? ", the same process"
            : ": restarted meanwhile")
        + "), so every command below ran against a running node and its running daemon.";
  }

  private String method() {
    return "Every command runs inside the sandbox via `nsenter` under GNU `/usr/bin/time -v` (user+system CPU time "
        + "and maximum RSS of the command and its children: for noneops the `bin/noneops` bash launcher plus the JVM), "
        + "in a bash that reads `$EPOCHREALTIME` (microseconds, no process of its own) right before and after it for the "
        + "wall time, since `/usr/bin/time` reports wall time in 10 ms steps only; every wall time thus includes "
        + "`/usr/bin/time`'s own start (the harness row). `bin/noneops` is the repository's launcher with its flags and "
        + "static CDS archive, made on the host before the sandbox booted; the installed command is the launcher "
        + "`bootstrap` wrote to " + HostPaths.realHost().agentCommand()
        + ", which kubelet's allocation launch check runs. Interleaved, " + runs + " runs each.";
  }

  private static String direct(Optional<String> noDirect) {
    return noDirect
        .map(why ->
            "No `--direct` rows: this CLI does not take the option (`noneops status --direct` exited 2, a "
                + "usage error: `" + inline(why)
                + "`), so both commands are answered by the CLI's own JVM.")
        .orElse(
            "This CLI takes `--direct`: without it `status` and `allocation-launch-check` are answered by the "
                + "running daemon over its Unix socket, with it by the CLI's own JVM as before; both are measured.");
  }

  private static void goalRows(Section section, Probe ours, Probe baseline) {
    boolean wallMet = ours.wall().median() <= StatusBenchmark.WALL_GOAL_MS;
    boolean rssMet = ours.rss().max() <= StatusBenchmark.RSS_GOAL_MB;
    section
        .line("| " + ours.label() + " | wall time | " + ours.wall().summary() + " | "
            + baseline.wall().summary() + " | " + Samples.ratio(ours.wall(), baseline.wall())
            + " | ≤ " + Samples.fmt(StatusBenchmark.WALL_GOAL_MS) + " ms median: **"
            + (wallMet ? "met" : "missed") + "** |")
        .line("| " + ours.label() + " | peak RSS | " + ours.rss().summary() + " | "
            + baseline.rss().summary() + " | " + Samples.ratio(ours.rss(), baseline.rss())
            + " | ≤ " + Samples.fmt(StatusBenchmark.RSS_GOAL_MB) + " MB in every run (largest "
            + Samples.fmt(ours.rss().max()) + " MB): **" + (rssMet ? "met" : "missed") + "** |");
  }

  private static String exit(Shell.Result r) {
    return "exit " + r.exitCode();
  }

  private static String inline(String text) {
    return text.strip().replace('\n', ' ').replace("`", "'").replace("|", "\\|");
  }
}
