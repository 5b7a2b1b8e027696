package dev.noneops.benchmarks.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row 7: what {@code noneops daemon} costs while the node is idle, and how soon it applies a
 * changed configuration file.
 *
 * <p>A node is bootstrapped in a sandboxed systemd from the CLI jar, as an operator does it, so
 * the daemon runs as the real {@code noneops-agent.service} started by {@code bootstrap}. Idle
 * cost: over a window (10 minutes for the real row), every 10 s, the daemon's main process's RSS
 * and CPU time from {@code /proc}, next to a JVM started with the installed launcher's JVM
 * options that only sleeps ({@link IdleJvm}, as a unit of the same systemd), and the sandbox's
 * systemd (PID 1) for scale. The node's configuration names no Machine. Reaction: another node
 * label written to the daemon's file (one rename) until the applied configuration records it, next
 * to {@code noneops apply} of the same kind of change run by hand from another file, alternating.
 * Then the same node follows a Machine ({@link MachineApiOnLoopback}: its configuration names
 * one, kubelet's kubeconfig reaches a mock API server, the daemon restarted) and its daemon is
 * sampled over a second window of the same length, the idle JVM again beside it; each figure is
 * set beside issue #29's goals (at most 48 MB without a Machine, 64 MB with one, under 0.2 % of a
 * core at idle).
 *
 * <p>Usage: {@code DaemonBenchmark <section.md> <repository root> [minutes] [reaction runs]}.
 * Needs root, Debian's containerd packages (cached below {@code ~/.cache/noneops}) and kubelet's
 * healthz port 10248 free.
 */
public final class DaemonBenchmark {
  static final String AGENT_UNIT = "noneops-agent.service";
  static final String IDLE_UNIT = "bench-idle-jvm.service";
  /** node_exporter's textfile collector directory, where the daemon writes its metrics. */
  static final String TEXTFILES = "/var/lib/prometheus/node-exporter";

  static final String DNS_INTERFACE = "nodm0";
  static final String DNS_ADDRESS = "169.254.20.54";
  static final String MANUAL_CONFIG = "/etc/unbounded/agent/by-hand.json";
  static final String IDLE_CLASSES = "/run/noneops-bench/idle";
  static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final Duration POLL_INTERVAL = Duration.ofSeconds(5);
  static final Duration REACTION_TIMEOUT = Duration.ofMinutes(3);
  static final String LABEL = "\"example.com/pool\": \"demo\"";
  private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

  private DaemonBenchmark() {}

  /**
   * One reconfiguration, split at the instant systemd began stopping kubelet (its journal line):
   * before it the daemon's wait or the command's JVM start, plus the work both do first; after it
   * the restart, kubelet's healthz and the record of the applied configuration.
   */
  record Reaction(double totalMs, double beforeKubeletStopMs) {
    void addTo(Samples total, Samples before, Samples after) {
      total.add(totalMs);
      before.add(beforeKubeletStopMs);
      after.add(totalMs - beforeKubeletStopMs);
    }
  }

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    Path repo = Path.of(args[1]).toAbsolutePath();
    int minutes = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    if (minutes < 1 || minutes > 120 || runs < 1 || runs > 50) {
      throw new IllegalArgumentException(
          "minutes must be within 1..120 and runs within 1..50: " + minutes + ", " + runs);
    }
    Path jar = repo.resolve("adapter-cli/target/noneops.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: `bin/noneops version` builds it");
    }
    ExampleAgentNode example = ExampleAgentNode.publish();
    long ticks = Long.parseLong(
        Shell.check(List.of("getconf", "CLK_TCK"), Duration.ofSeconds(10)).out().strip());

    ProcessSeries daemon =
        ProcessSeries.ofUnit("`noneops daemon` (noneops-agent.service)", AGENT_UNIT);
    ProcessSeries idle =
        ProcessSeries.ofUnit("idle JVM, the launcher's options (baseline)", IDLE_UNIT);
    ProcessSeries systemd = ProcessSeries.ofPid1("the sandbox's systemd, PID 1 (for scale)");
    Samples reaction = new Samples("ms");
    Samples reactionBefore = new Samples("ms");
    Samples reactionAfter = new Samples("ms");
    Samples byHand = new Samples("ms");
    Samples byHandBefore = new Samples("ms");
    Samples byHandAfter = new Samples("ms");
    Samples load = new Samples("");
    String links;
    String jvmOptions;
    String bootstrapOut;
    String agentCpuAccounting;
    String metricsFile = "";
    ProcessSeries machineDaemon = ProcessSeries.ofUnit(
        "`noneops daemon` following a Machine (a mock API server on loopback)", AGENT_UNIT);
    ProcessSeries idleAgain = ProcessSeries.ofUnit(
        "idle JVM, the launcher's options (baseline, sampled again beside it)", IDLE_UNIT);
    String machineCpuAccounting;
    String machineSetup;
    String threadsNoMachine;
    String threadsMachine;
    int appliedLines;
    Duration boot;
    String started = Instant.now().toString();
    ExampleAgentNode.awaitPortsFree("daemon benchmark");
    try (ArtifactServer server = ArtifactServer.serve(example.repositoryRoot());
        SystemdSandbox sandbox = SystemdSandbox.boot("bench-daemon")) {
      boot = sandbox.bootTime();
      SandboxedAgentNode node = new SandboxedAgentNode(sandbox);
      String base = withoutMachine(example.json(server, DNS_INTERFACE, DNS_ADDRESS));
      try {
        links = node.provideDummyLinks();
        // metrics on: node_exporter's textfile directory, root's and 0755 as Debian's package
        // makes it, which the daemon writes noneops.prom into
        Files.createDirectories(sandbox.path(TEXTFILES));
        sandbox.exec("chown", "root:root", TEXTFILES).orThrow();
        sandbox.exec("chmod", "0755", TEXTFILES).orThrow();
        bootstrapOut = node.bootstrap(jar, base);
        List<String> launcher = launcherWords(node.launcher());
        jvmOptions = String.join(" ", launcher.subList(1, launcher.size()));
        startIdleJvm(sandbox, launcher);
        System.err.printf(
            "daemon benchmark: node bootstrapped; settling %d s%n", SETTLE.toSeconds());
        Thread.sleep(SETTLE.toMillis());
        String cpuBefore = cpuUsage(sandbox, AGENT_UNIT);
        sampleWindow(sandbox, minutes, List.of(daemon, idle, systemd), load);
        agentCpuAccounting =
            cpuAccounting(cpuBefore, cpuUsage(sandbox, AGENT_UNIT), daemon.windowSeconds());
        threadsNoMachine = threadNames(sandbox);
        Path prom = sandbox.path(TEXTFILES + "/noneops.prom");
        metricsFile = Files.isRegularFile(prom)
            ? "`" + TEXTFILES + "/noneops.prom` (" + Files.size(prom) + " bytes at the window's"
                + " end, last written " + Files.getLastModifiedTime(prom).toInstant() + ")"
            : "no metrics file (`" + TEXTFILES + "/noneops.prom` missing at the window's end)";
        for (int i = 1; i <= runs; i++) {
          Thread.sleep(500 + (i * 2300L) % POLL_INTERVAL.toMillis());
          reactOnce(sandbox, node, base, "daemon-" + i)
              .addTo(reaction, reactionBefore, reactionAfter);
          applyByHand(sandbox, node, base, "by-hand-" + i).addTo(byHand, byHandBefore, byHandAfter);
          System.err.printf(
              "daemon benchmark: reaction run %d done: daemon median %.0f ms, by hand median %.0f ms%n",
              i, reaction.median(), byHand.median());
        }
        appliedLines = (int) sandbox
            .journal(AGENT_UNIT)
            .lines()
            .filter(l -> l.contains(" applied "))
            .count();
        // the same node, its daemon following a Machine from its start
        try (MachineApiOnLoopback api = MachineApiOnLoopback.start(repo)) {
          machineSetup = followAMachine(sandbox, node, base, api);
          System.err.printf(
              "daemon benchmark: the daemon follows Machine %s; settling %d s%n",
              MACHINE, SETTLE.toSeconds());
          Thread.sleep(SETTLE.toMillis());
          String machineCpuBefore = cpuUsage(sandbox, AGENT_UNIT);
          sampleWindow(sandbox, minutes, List.of(machineDaemon, idleAgain), load);
          machineCpuAccounting = cpuAccounting(
              machineCpuBefore, cpuUsage(sandbox, AGENT_UNIT), machineDaemon.windowSeconds());
          threadsMachine = threadNames(sandbox);
          Files.deleteIfExists(sandbox.path(KUBECONFIG));
        }
      } catch (RuntimeException e) {
        System.err.println("journal of " + AGENT_UNIT + ":\n" + sandbox.journal(AGENT_UNIT));
        throw e;
      } finally {
        node.reset(DNS_INTERFACE);
      }
    }
    String finished = Instant.now().toString();
    new Section()
        .heading("7. The agent's daemon: idle cost and reaction time")
        .paragraph(
            describe(boot, bootstrapOut, links, jvmOptions, minutes, daemon, started, finished)
                + " Metrics on: the daemon writes them for node_exporter's textfile collector"
                + " whenever they change and at least once a minute, the Prometheus client's"
                + " registry rendered at every tick to compare; " + metricsFile + ".")
        .line(
            "| process | RSS (sampled every 10 s) | CPU time used over the window | of one core | threads (max) |")
        .line("|---|---|---|---|---|")
        .line(row(daemon, ticks))
        .line(row(machineDaemon, ticks))
        .line(row(idle, ticks))
        .line(row(idleAgain, ticks))
        .line(row(systemd, ticks))
        .line("")
        .paragraph("The daemon following a Machine: " + machineSetup + " Its window ("
            + minutes + " minutes, " + machineDaemon.count()
            + " samples) came after the reaction runs below, " + SETTLE.toSeconds()
            + " s after the restart; the idle JVM was sampled again beside it.")
        .line("| goal (issue #29) | measured | baseline: idle JVM | goal | verdict |")
        .line("|---|---|---|---|---|")
        .line(goal(
            "RSS, no Machine followed (largest sample)",
            daemon.rss(),
            idle.rss(),
            MAX_RSS_NO_MACHINE_MB))
        .line(goal(
            "RSS, a Machine followed (largest sample)",
            machineDaemon.rss(),
            idleAgain.rss(),
            MAX_RSS_MACHINE_MB))
        .line(cpuGoal("CPU at idle, no Machine followed", daemon, idle, ticks))
        .line(cpuGoal("CPU at idle, a Machine followed", machineDaemon, idleAgain, ticks))
        .line("")
        .paragraph("Threads at each window's end (`/proc/<pid>/task/*/comm`): no Machine "
            + threadsNoMachine + "; a Machine followed " + threadsMachine
            + ". The unit's own accounting over the Machine window: " + machineCpuAccounting + ".")
        .paragraph("Ratios, daemon over the idle JVM: RSS median **"
            + Samples.ratio(daemon.rss(), idle.rss()) + "**, CPU time **"
            + ratio(daemon.cpuSeconds(ticks), idle.cpuSeconds(ticks))
            + "**. The daemon's unit's own accounting (`systemctl show -p CPUUsageNSec`, the whole unit's cgroup): "
            + agentCpuAccounting + ".")
        .paragraph("Reaction, after the window, alternating, " + runs
            + " runs each. Daemon: another value of a node label "
            + "(`Kubelet.Labels`) written to the daemon's file `" + SandboxedAgentNode.CONFIG
            + "` in one rename, at instants spread over the poll interval, timed until the applied configuration (`"
            + HostPaths.realHost().appliedConfig()
            + "`) records it, read every 10 ms. By hand: the same kind of change in "
            + "another file, `noneops apply --config " + MANUAL_CONFIG
            + "` run inside the sandbox through the installed "
            + "command (`/usr/local/bin/noneops`, a new JVM), timed from its start to its exit. Either way the operation "
            + "rewrites kubelet's configuration, restarts kubelet and waits for its healthz, then records the applied "
            + "configuration. The daemon sees the write at its next look at the file's metadata "
            + "(every 200 ms, a tick once the metadata held for one look: 200-400 ms), and at the latest at its "
            + POLL_INTERVAL.toSeconds()
            + " s poll. The daemon logged "
            + appliedLines + " `applied` lines (" + runs
            + " expected).")
        .line("| figure | measured | expected bound |")
        .line("|---|---|---|")
        .line("| daemon: file written → change applied | " + reaction.summary()
            + " | ≤ poll interval (" + POLL_INTERVAL.toSeconds() + " s) + the operation: **"
            + (reaction.max() <= POLL_INTERVAL.toMillis() + byHand.max() ? "within" : "beyond")
            + "** |")
        .line(
            "| `noneops apply` by hand (baseline: the same operation without the daemon's wait) | "
                + byHand.summary() + " | — |")
        .line("| daemon's median over by hand | " + Samples.ratio(reaction, byHand) + " | — |")
        .line("")
        .paragraph(
            "Split at the instant systemd began stopping kubelet (its `Stopping kubelet` journal line, "
                + "`journalctl -o short-unix`, the host's CLOCK_REALTIME on both sides): before it the daemon's wait for its next "
                + "poll, or the command's JVM start, plus the work both do before the restart (read and validate the file, "
                + "render and write the configuration); after it kubelet's restart, its healthz and the record of the applied "
                + "configuration (for the daemon up to the benchmark's next read of the file, every 10 ms).")
        .line("| part | daemon | by hand | ratio |")
        .line("|---|---|---|---|")
        .line("| written (or command started) → kubelet stopping | " + reactionBefore.summary()
            + " | " + byHandBefore.summary() + " | " + Samples.ratio(reactionBefore, byHandBefore)
            + " |")
        .line(
            "| kubelet stopping → applied (or command exited) | " + reactionAfter.summary() + " | "
                + byHandAfter.summary() + " | " + Samples.ratio(reactionAfter, byHandAfter) + " |")
        .line("")
        .paragraph(machine(load))
        .writeTo(sectionFile);
  }

  static final String MACHINE = "worker-1";
  static final String KUBECONFIG = "/var/lib/kubelet/kubeconfig";
  static final double MAX_RSS_NO_MACHINE_MB = 48;
  static final double MAX_RSS_MACHINE_MB = 64;
  static final double MAX_IDLE_CPU_PERCENT = 0.2;
  private static final String NAMED = "\"MachineName\": \"" + MACHINE + "\"";
  private static final String UNNAMED = "\"MachineName\": \"\"";

  /** The example configuration naming no Machine: a node whose daemon follows only its file. */
  static String withoutMachine(String json) {
    if (!json.contains(NAMED)) {
      throw new IllegalStateException(
          "the example configuration names no Machine " + MACHINE + " to take out: " + json);
    }
    return json.replace(NAMED, UNNAMED);
  }

  /**
   * Has the node's daemon follow Machine {@link #MACHINE} through {@code api}: the configuration
   * naming it applied first (its readiness gate asks the example's API server, which does not
   * answer, as every reaction run does: kubelet's healthz alone), then kubelet's kubeconfig made to
   * reach {@code api}, and the daemon restarted, so that the process measured follows the Machine
   * from its start; waits for its journal's {@code registered Machine} line.
   */
  private static String followAMachine(
      SystemdSandbox sandbox, SandboxedAgentNode node, String base, MachineApiOnLoopback api)
      throws Exception {
    node.writeConfig(SandboxedAgentNode.CONFIG, base.replace(UNNAMED, NAMED));
    long deadline = System.nanoTime() + REACTION_TIMEOUT.toNanos();
    while (!node.applied().contains("\"MachineName\"")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the daemon did not apply the configuration naming Machine " + MACHINE);
      }
      Thread.sleep(100);
    }
    Path kubeconfig = sandbox.path(KUBECONFIG);
    Files.createDirectories(Objects.requireNonNull(kubeconfig.getParent(), "kubelet's directory"));
    Files.writeString(kubeconfig, api.kubeconfig(), UTF_8);
    sandbox.exec("chmod", "0600", KUBECONFIG).orThrow();
    sandbox.systemctl("restart", AGENT_UNIT).orThrow();
    deadline = System.nanoTime() + REACTION_TIMEOUT.toNanos();
    while (sandbox.journal(AGENT_UNIT).lines().noneMatch(l -> l.contains("registered Machine"))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the restarted daemon did not register Machine " + MACHINE
            + " with the mock API server:\n" + sandbox.journal(AGENT_UNIT));
      }
      Thread.sleep(500);
    }
    return "the configuration naming Machine `" + MACHINE + "` applied by the daemon, kubelet's"
        + " kubeconfig (`" + KUBECONFIG + "`) pointed at fabric8's mock API server in CRUD mode"
        + " serving the Machine CRD (`http://127.0.0.1:" + api.port() + "`, in the benchmark's"
        + " JVM: the sandbox shares the host's network), and `" + AGENT_UNIT + "` restarted; the"
        + " new process registered the Machine and watches it (its journal's `registered Machine`"
        + " line).";
  }

  /** One sample of each of {@code series} every {@link #SAMPLE_EVERY} over {@code minutes}. */
  private static void sampleWindow(
      SystemdSandbox sandbox, int minutes, List<ProcessSeries> series, Samples load)
      throws Exception {
    long start = System.nanoTime();
    int samples = (int) (Duration.ofMinutes(minutes).toSeconds() / SAMPLE_EVERY.toSeconds());
    for (int i = 0; i <= samples; i++) {
      long due = start + SAMPLE_EVERY.toNanos() * i;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      for (ProcessSeries s : series) {
        s.sample(sandbox);
      }
      load.add(loadAverage());
      if (i % 6 == 0) {
        System.err.printf("daemon benchmark: sample %d/%d%n", i, samples);
      }
    }
  }

  /** The daemon's threads by name, counted: {@code 2× java, 1× C1 CompilerThre, ...}. */
  private static String threadNames(SystemdSandbox sandbox) {
    long pid = ProcessSeries.mainPid(sandbox, AGENT_UNIT);
    String names =
        sandbox.exec("sh", "-c", "cat /proc/" + pid + "/task/*/comm").orThrow().stdout();
    Map<String, Integer> counted = new TreeMap<>();
    names.lines().map(String::strip).forEach(n -> counted.merge(n, 1, Integer::sum));
    StringBuilder out = new StringBuilder();
    counted.forEach((n, c) -> out.append(out.length() == 0 ? "" : ", ")
        .append(c)
        .append("× `")
        .append(n)
        .append('`'));
    return names.lines().count() + " (" + out + ")";
  }

  private static String goal(String what, Samples ours, Samples baseline, double maxMb) {
    return "| " + what + " | "
        + String.format(Locale.ROOT, "%.1f MB (median %.1f)", ours.max(), ours.median())
        + " | " + String.format(Locale.ROOT, "%.1f MB", baseline.median()) + " | ≤ "
        + String.format(Locale.ROOT, "%.0f MB", maxMb) + " | **"
        + (ours.max() <= maxMb ? "met" : "missed") + "** |";
  }

  private static String cpuGoal(
      String what, ProcessSeries ours, ProcessSeries baseline, long ticks) {
    double percent = 100 * ours.cpuSeconds(ticks) / ours.windowSeconds();
    double base = 100 * baseline.cpuSeconds(ticks) / baseline.windowSeconds();
    return "| " + what + " | " + String.format(Locale.ROOT, "%.3f %% of one core", percent) + " | "
        + String.format(Locale.ROOT, "%.3f %%", base) + " | < "
        + String.format(Locale.ROOT, "%.1f %%", MAX_IDLE_CPU_PERCENT) + " | **"
        + (percent < MAX_IDLE_CPU_PERCENT ? "met" : "missed") + "** |";
  }

  private static String describe(
      Duration boot,
      String bootstrapOut,
      String links,
      String jvmOptions,
      int minutes,
      ProcessSeries daemon,
      String started,
      String finished) {
    return "A systemd booted in [the sandbox](guides/tests.md#the-sandboxed-systemd) (booted in "
        + boot.toMillis()
        + " ms); a node bootstrapped there by `java -jar noneops.jar bootstrap --no-kernel-modules` (the CLI jar copied "
        + "into the sandbox and run as its own JVM, as the demo does; " + links
        + "), with Debian's containerd and runc and "
        + "the kubelet and CoreDNS stand-ins from a loopback artifact server. `bootstrap` installed the agent and started "
        + "`noneops-agent.service`, whose main process is `noneops daemon` ("
        + (daemon.pids().size() == 1
            ? "PID " + daemon.pids().get(0) + ", the same process at every sample"
            : "PIDs " + daemon.pids() + ": restarted during the window")
        + "), reading its file every " + POLL_INTERVAL.toSeconds()
        + " s and at once when the file's metadata (one `lstat` every 200 ms) changed and held. "
        + "Bootstrap's last line: `"
        + bootstrapOut.lines().reduce((a, b) -> b).orElse("").replace("|", "\\|")
        + "`. Idle window: " + minutes
        + " minutes (" + started + " to " + finished + " for the whole row), starting "
        + SETTLE.toSeconds()
        + " s after bootstrap, one sample every " + SAMPLE_EVERY.toSeconds() + " s ("
        + daemon.count()
        + " samples) of each process's `VmRSS` (`/proc/<pid>/status`) and `utime + stime` "
        + "(`/proc/<pid>/stat`, all threads), the units' main PIDs from `systemctl show -p MainPID`. Baseline: `"
        + IDLE_UNIT
        + "`, started with `systemd-run` in the same sandbox: the launcher's java and JVM options (`"
        + jvmOptions.replace("|", "\\|")
        + "`, read from the installed launcher) running a main that only sleeps; "
        + "the sandbox's systemd for scale (it also serves the daemon's D-Bus calls).";
  }

  /** Produced-by and how busy the machine was: the one-minute load average at every sample. */
  private static String machine(Samples load) {
    int cpus = Runtime.getRuntime().availableProcessors();
    String command = System.getProperty("noneops.bench.command", "DaemonBenchmark");
    String how = System.getProperty("noneops.bench.how", "on its own");
    String busy = load.median() > cpus * 0.5
        ? " The machine was busy with other work during the window (other builds and test runs share it): CPU time of "
            + "the sampled processes counts only their own work and is the figure to read; RSS does not depend on load; "
            + "wall times (the reaction rows) stretch with it."
        : "";
    return "Produced by `" + command + "` (" + how
        + "). One-minute load average at the idle window's samples: "
        + load.summary().replace("  (", " (") + " on " + cpus + " CPUs." + busy;
  }

  private static String row(ProcessSeries s, long ticks) {
    double cpu = s.cpuSeconds(ticks);
    return "| " + s.label() + " | " + s.rss().summary() + " | "
        + String.format(
            Locale.ROOT, "%.2f s (%.2f s before the window)", cpu, s.cpuSecondsBefore(ticks))
        + " | " + String.format(Locale.ROOT, "%.3f %%", 100 * cpu / s.windowSeconds()) + " | "
        + s.maxThreads() + " |";
  }

  private static String ratio(double ours, double baseline) {
    return baseline <= 0
        ? "— (the baseline used no CPU time the clock could see)"
        : String.format(Locale.ROOT, "%.2f", ours / baseline);
  }

  /** Writes a configuration with label value {@code value} to the daemon's file and times it until it is applied. */
  private static Reaction reactOnce(
      SystemdSandbox sandbox, SandboxedAgentNode node, String base, String value) throws Exception {
    node.writeConfig(SandboxedAgentNode.CONFIG, labelled(base, value));
    long start = System.nanoTime();
    Instant written = Instant.now();
    long deadline = start + REACTION_TIMEOUT.toNanos();
    while (!node.applied().contains(value)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the daemon did not apply label " + value + " within " + REACTION_TIMEOUT);
      }
      Thread.sleep(10);
    }
    double total = (System.nanoTime() - start) / 1e6;
    return new Reaction(total, kubeletStopAfter(sandbox, written));
  }

  private static Reaction applyByHand(
      SystemdSandbox sandbox, SandboxedAgentNode node, String base, String value) throws Exception {
    node.writeConfig(MANUAL_CONFIG, labelled(base, value));
    Instant started = Instant.now();
    Shell.Result r = node.noneops("apply", "--config", MANUAL_CONFIG, "--kubelet-timeout", "60s");
    if (r.exitCode() != 0 || !node.applied().contains(value)) {
      throw new IllegalStateException("noneops apply exited " + r.exitCode() + " (applied: "
          + node.applied().contains(value) + "): " + r.err().strip());
    }
    return new Reaction(r.nanos() / 1e6, kubeletStopAfter(sandbox, started));
  }

  /** Milliseconds from {@code since} to systemd's first "Stopping kubelet" journal line after it. */
  static double kubeletStopAfter(SystemdSandbox sandbox, Instant since) {
    String journal = sandbox
        .exec(
            List.of(
                "journalctl",
                "--no-pager",
                "-o",
                "short-unix",
                "-u",
                "kubelet.service",
                "--since",
                "@" + (since.getEpochSecond() - 1)),
            Duration.ofSeconds(30))
        .orThrow()
        .stdout();
    double from = since.getEpochSecond() + since.getNano() / 1e9;
    for (String line : journal.lines().toList()) {
      int space = line.indexOf(' ');
      if (space > 0
          && line.contains("Stopping kubelet")
          && line.substring(0, space).matches("\\d+\\.\\d+")) {
        double at = Double.parseDouble(line.substring(0, space));
        if (at >= from) {
          return (at - from) * 1000;
        }
      }
    }
    throw new IllegalStateException(
        "no \"Stopping kubelet\" line after " + since + " in:\n" + journal);
  }

  private static String labelled(String json, String value) {
    if (!json.contains(LABEL)) {
      throw new IllegalStateException("the example configuration has no label to extend: " + json);
    }
    return json.replace(LABEL, LABEL + ", \"bench.noneops.dev/run\": \"" + value + "\"");
  }

  /** The words of the launcher's {@code exec} line: the java, its options, up to {@code -jar}. */
  static List<String> launcherWords(String launcher) {
    String exec = launcher
        .lines()
        .filter(l -> l.startsWith("exec "))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the launcher has no exec line: " + launcher));
    String beforeJar = exec.substring(0, exec.indexOf(" -jar "));
    List<String> words = new ArrayList<>();
    Matcher m = QUOTED.matcher(beforeJar);
    while (m.find()) {
      words.add(m.group(1));
    }
    if (words.isEmpty()) {
      throw new IllegalStateException("cannot read the launcher's java: " + exec);
    }
    return words;
  }

  private static void startIdleJvm(SystemdSandbox sandbox, List<String> launcher)
      throws IOException {
    String resource = IdleJvm.class.getSimpleName() + ".class";
    Path target =
        sandbox.path(IDLE_CLASSES + "/" + IdleJvm.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(Objects.requireNonNull(target.getParent(), "the class's directory"));
    try (InputStream in = Objects.requireNonNull(
        IdleJvm.class.getResourceAsStream(resource), "the class file of IdleJvm")) {
      Files.write(target, in.readAllBytes());
    }
    List<String> command = new ArrayList<>(
        List.of("systemd-run", "--unit=" + IDLE_UNIT, "--property=Type=exec", "--quiet"));
    command.addAll(launcher);
    command.addAll(List.of("-cp", IDLE_CLASSES, IdleJvm.class.getName()));
    sandbox.exec(command, Duration.ofMinutes(1)).orThrow();
  }

  private static String cpuUsage(SystemdSandbox sandbox, String unit) {
    return sandbox
        .systemctl("show", "-p", "CPUUsageNSec", "--value", unit)
        .stdout()
        .strip();
  }

  private static String cpuAccounting(String before, String after, double seconds) {
    if (!before.matches("\\d+") || !after.matches("\\d+")) {
      return "not available in the sandbox (`" + after + "`)";
    }
    double used = (Long.parseLong(after) - Long.parseLong(before)) / 1e9;
    return String.format(
        Locale.ROOT, "%.2f s over the window, %.3f %% of one core", used, 100 * used / seconds);
  }

  private static double loadAverage() throws IOException {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg"), UTF_8).split(" ")[0]);
  }
}
