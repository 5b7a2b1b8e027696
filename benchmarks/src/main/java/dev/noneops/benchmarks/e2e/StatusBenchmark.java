package dev.noneops.benchmarks.e2e;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Row 4: wall time and peak RSS of {@code bin/noneops status} and {@code bin/noneops
 * allocation-launch-check} on a sandboxed real systemd with a node installed, against
 * {@code systemctl is-active} of the same three units (and, for the launch check, kubelet's
 * healthz fetched by {@code curl}).
 *
 * <p>The node is bootstrapped through the CLI inside the sandbox ({@link SandboxedAgentNode}), so
 * its units are active and its daemon {@code noneops-agent.service} runs while the commands are
 * measured; both are checked before the first run and after the last. In the same interleaved
 * loop it measures the floor under the commands: the launcher and JVM alone ({@code -version} with
 * {@code bin/noneops}'s flags and CDS archive), the CLI without host access ({@code noneops
 * version}) and the harness itself, so the cost of each command's own work can be read off by
 * difference. Where the CLI has {@code --direct} (the commands answered by the CLI's own JVM
 * rather than by the running daemon), those variants are measured too.
 *
 * <p>Usage: {@code StatusBenchmark <section.md> <repository root> [runs]}. Needs root, GNU
 * {@code /usr/bin/time}, Debian's containerd packages (cached below {@code ~/.cache/noneops}) and
 * kubelet's healthz port 10248 free.
 */
public final class StatusBenchmark {
  static final List<String> UNITS = HostPaths.STACK_UNITS;
  static final String DNS_INTERFACE = "nosb0";
  static final String DNS_ADDRESS = "169.254.20.55";
  static final String CURRENT = Layout.defaultLayout().current().toString();
  static final String HEALTHZ = "http://127.0.0.1:10248/healthz";
  static final double WALL_GOAL_MS = 200;
  static final double RSS_GOAL_MB = 64;
  /** After bootstrap, before the first run: the node's and the daemon's start-up work is over. */
  static final Duration SETTLE = Duration.ofSeconds(10);

  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);

  private StatusBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    Path repo = Path.of(args[1]).toAbsolutePath();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    if (runs < 1 || runs > 100) {
      throw new IllegalArgumentException("runs must be within 1..100: " + runs);
    }
    Path jar = repo.resolve("adapter-cli/target/noneops.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: `bin/noneops version` builds it");
    }
    String launcher = repo.resolve("bin/noneops").toString();
    ExampleAgentNode example = ExampleAgentNode.publish();
    ExampleAgentNode.awaitPortsFree("status benchmark");
    String loadBefore;
    Duration boot;
    String links;
    String bootstrapOut;
    String activeBefore;
    String activeAfter;
    Optional<String> noDirect;
    Shell.Result statusOut;
    Shell.Result checkOut;
    Probes probes;
    try (ArtifactServer server = ArtifactServer.serve(example.repositoryRoot());
        SystemdSandbox sandbox = SystemdSandbox.boot("bench-status")) {
      boot = sandbox.bootTime();
      SandboxedAgentNode node = new SandboxedAgentNode(sandbox);
      try {
        links = node.provideDummyLinks();
        bootstrapOut = node.bootstrap(jar, example.json(server, DNS_INTERFACE, DNS_ADDRESS));
        System.err.printf(
            "status benchmark: node bootstrapped; settling %d s%n", SETTLE.toSeconds());
        Thread.sleep(SETTLE.toMillis());
        activeBefore = requireActive(sandbox, node, "before the first run");
        TimedCommand timed = new TimedCommand(sandbox);
        List<String> noneops = List.of("env", "NONEOPS_NO_REBUILD=1", launcher);
        noDirect = directRejected(timed.plain(with(noneops, "status", "--direct")));
        probes = probes(timed, launcher, noDirect.isEmpty());
        statusOut = Shell.run(timed.plain(with(noneops, "status")), COMMAND_TIMEOUT);
        checkOut =
            Shell.run(timed.plain(with(noneops, "allocation-launch-check")), COMMAND_TIMEOUT);
        System.err.printf(
            "status benchmark: %d runs of %d commands, interleaved%n",
            runs, probes.all().size());
        loadBefore = LoadAverage.oneMinute();
        for (int i = 0; i < runs; i++) {
          for (Probe probe : probes.all()) {
            probe.measureOnce();
          }
        }
        activeAfter = requireActive(sandbox, node, "after the last run");
      } catch (RuntimeException e) {
        System.err.println(node.journals());
        System.err.println(
            "journal of " + HostPaths.AGENT_UNIT + ":\n" + sandbox.journal(HostPaths.AGENT_UNIT));
        throw e;
      } finally {
        node.reset(DNS_INTERFACE);
      }
    }
    new StatusSection(runs, probes)
        .write(
            sectionFile,
            new StatusSection.Setting(
                boot,
                links,
                last(bootstrapOut),
                example.containerdVersion(),
                activeBefore,
                activeAfter,
                noDirect,
                statusOut,
                checkOut,
                loadBefore));
  }

  /** The commands measured, in the order of the interleaved loop; the named ones are in {@link #all}. */
  record Probes(
      Probe status,
      Probe check,
      Optional<Probe> statusDirect,
      Optional<Probe> checkDirect,
      Probe statusBaseline,
      Probe checkBaseline,
      List<Probe> all) {}

  private static Probes probes(TimedCommand timed, String launcher, boolean direct) {
    List<String> noneops = List.of("env", "NONEOPS_NO_REBUILD=1", launcher);
    String answered = direct
        ? "the launcher, the JVM and the CLI; the answer from the running daemon over its Unix socket"
        : "the launcher, the JVM, the CLI, and the host";
    List<Probe> all = new ArrayList<>();
    Probe status = add(
        all,
        new Probe(
            "`noneops status`",
            answered + ": the node's files read through NIO, the units over D-Bus",
            timed.measured(with(noneops, "status"))));
    add(
        all,
        new Probe(
            "`noneops status --json`",
            "as `status`, the result written by Jackson",
            timed.measured(with(noneops, "status", "--json"))));
    Probe check = add(
        all,
        new Probe(
            "`noneops allocation-launch-check`",
            answered
                + ": `current`'s version verified against its manifest (as `prepare` checks it: each file's size, mode, inode and times against the manifest, a file whose stamps differ read and hashed), "
                + "the upgrade journal, the units over D-Bus",
            timed.measured(with(noneops, "allocation-launch-check"))));
    add(
        all,
        new Probe(
            "`noneops allocation-launch-check --json`",
            "as `allocation-launch-check`, the result written by Jackson",
            timed.measured(with(noneops, "allocation-launch-check", "--json"))));
    Optional<Probe> statusDirect = Optional.empty();
    Optional<Probe> checkDirect = Optional.empty();
    if (direct) {
      statusDirect = Optional.of(add(
          all,
          new Probe(
              "`noneops status --direct`",
              "as `status`, answered by the CLI's own JVM rather than by the running daemon",
              timed.measured(with(noneops, "status", "--direct")))));
      checkDirect = Optional.of(add(
          all,
          new Probe(
              "`noneops allocation-launch-check --direct`",
              "as `allocation-launch-check`, answered by the CLI's own JVM rather than by the running daemon",
              timed.measured(with(noneops, "allocation-launch-check", "--direct")))));
    }
    add(
        all,
        new Probe(
            "`/usr/local/bin/noneops allocation-launch-check` (the installed command)",
            "the command kubelet's launch check runs: the launcher `bootstrap` wrote (the bootstrapping JVM's options and the class-data archive `bootstrap` made for the installed jar)",
            timed.measured(List.of(
                HostPaths.realHost().agentCommand().toString(), "allocation-launch-check"))));
    add(
        all,
        new Probe(
            "`sha256sum` of the active version's files",
            "what the launch check's verification reads and hashes, done natively: `find " + CURRENT
                + "/ -type f -exec sha256sum {} +`",
            timed.measured(
                List.of("find", CURRENT + "/", "-type", "f", "-exec", "sha256sum", "{}", "+"))));
    add(
        all,
        new Probe(
            "`noneops version`",
            "the launcher, the JVM and the CLI (picocli with one command); no host access",
            timed.measured(with(noneops, "version"))));
    add(
        all,
        new Probe(
            "`NONEOPS_JAVA_OPTS=-version noneops version`",
            "the launcher and the JVM with `bin/noneops`'s flags and CDS archive, started and stopped; no application code",
            timed.measured(List.of(
                "env",
                "NONEOPS_NO_REBUILD=1",
                "NONEOPS_JAVA_OPTS=-version",
                launcher,
                "version"))));
    Probe statusBaseline = add(
        all,
        new Probe(
            "`systemctl is-active` (baseline of `status`)",
            "the same three units",
            timed.measured(with(List.of("systemctl", "is-active"), UNITS.toArray(String[]::new)))));
    Probe checkBaseline = add(
        all,
        new Probe(
            "`systemctl is-active` + `curl` healthz (baseline of `allocation-launch-check`)",
            "`sh -c 'systemctl is-active --quiet <the three units> && curl -fsS -m 1 " + HEALTHZ
                + "'`",
            timed.measured(List.of(
                "sh",
                "-c",
                "systemctl is-active --quiet " + String.join(" ", UNITS) + " && curl -fsS -m 1 "
                    + HEALTHZ))));
    add(
        all,
        new Probe(
            "`/usr/bin/time -v true` (the harness)",
            "what the harness adds to every command: `/usr/bin/time`'s own start and a process that does nothing",
            timed.measured(List.of("true"))));
    return new Probes(
        status, check, statusDirect, checkDirect, statusBaseline, checkBaseline, List.copyOf(all));
  }

  private static Probe add(List<Probe> all, Probe probe) {
    all.add(probe);
    return probe;
  }

  /**
   * Empty when the CLI takes {@code --direct}; otherwise why not: {@code status --direct} exited
   * 2, picocli's usage error, with this first line on stderr.
   */
  private static Optional<String> directRejected(List<String> probe) throws Exception {
    Shell.Result r = Shell.run(probe, COMMAND_TIMEOUT);
    if (r.exitCode() != 2) {
      return Optional.empty();
    }
    return Optional.of(r.err().strip().lines().findFirst().orElse("(nothing on stderr)"));
  }

  /**
   * The stack's units and the agent's daemon, each active, with the daemon's main PID; otherwise
   * throws with the journals.
   */
  private static String requireActive(
      SystemdSandbox sandbox, SandboxedAgentNode node, String when) {
    List<String> units = new ArrayList<>(UNITS);
    units.add(HostPaths.AGENT_UNIT);
    List<String> args = new ArrayList<>(List.of("is-active"));
    args.addAll(units);
    List<String> states =
        sandbox.systemctl(args.toArray(String[]::new)).stdout().lines().toList();
    if (states.size() != units.size() || states.stream().anyMatch(s -> !s.equals("active"))) {
      throw new IllegalStateException("not every unit is active " + when + ": " + units + " are "
          + states + "\n" + node.journals() + "journal of " + HostPaths.AGENT_UNIT + ":\n"
          + sandbox.journal(HostPaths.AGENT_UNIT));
    }
    String pid = sandbox
        .systemctl("show", "-p", "MainPID", "--value", HostPaths.AGENT_UNIT)
        .stdout()
        .strip();
    return "PID " + pid;
  }

  private static String last(String text) {
    return text.lines().reduce((a, b) -> b).orElse("");
  }

  static List<String> with(List<String> prefix, String... command) {
    List<String> all = new ArrayList<>(prefix);
    all.addAll(List.of(command));
    return all;
  }
}
