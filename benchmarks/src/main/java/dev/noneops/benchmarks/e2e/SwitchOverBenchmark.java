package dev.noneops.benchmarks.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TimeoutOptions;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.KubeletStandIn;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import dev.noneops.testkit.fixtures.system.SandboxHostPorts;
import dev.noneops.testkit.fixtures.system.SandboxNodes;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Row 1: the upgrade switch-over window on a sandboxed real systemd, from the stop of the old
 * stack until kubelet (the stand-in) of the new version is active and answers its healthz.
 *
 * <p>noneops: a real {@code Node.upgrade()} over {@link DbusSystemd} from the node with the older
 * containerd build to the one with the newer build; the window is the time between the
 * {@code upgrade-stop-stack} STARTED event and the last {@code wait-kubelet} COMPLETED event
 * ({@link NodeEvent#at()}). Baseline: a shell script run inside the sandbox via {@code nsenter}
 * that stops the three units with {@code systemctl stop}, flips {@code current} with
 * {@code ln -sfn} + {@code mv -T}, starts the units with {@code systemctl start} and then polls
 * every 100 ms until {@code systemctl is-active kubelet} succeeds and {@code curl} gets
 * kubelet's healthz; it times itself with {@code date +%s%N}. The script switches back from the
 * newer build to the older one, so the two methods alternate on one node without a re-bootstrap.
 * Each window is split at the instant kubelet's stand-in logged its healthz answering: the part
 * after it is pure waiting (how late each method sees kubelet healthy), the part before it the
 * service work both share.
 *
 * <p>The floor ({@link FloorSwitch}): the same stop, flip and start and nothing else, the window
 * ending at the instant kubelet's healthz began answering, over D-Bus from this JVM (older → newer,
 * as noneops goes), and by {@code systemctl} on the way back. Every window is cut at the stop's end
 * and the start's beginning and end, so the row says in which phase noneops spends what the floor
 * does not.
 *
 * <p>Usage: {@code SwitchOverBenchmark <section.md> [runs]}. Needs root, Debian's containerd
 * packages (cached below {@code ~/.cache/noneops}) and kubelet's healthz port 10248 free.
 */
public final class SwitchOverBenchmark {
  static final String K8S = "1.31.4";
  static final String DNS_INTERFACE = "nost0";
  static final String DNS_ADDRESS = "169.254.20.53";
  static final Duration KUBELET_READY = Duration.ofSeconds(60);
  /** The goal: noneops' window at most this share of the script's. */
  static final double GOAL = 0.85;

  static final Layout LAYOUT = Layout.defaultLayout();
  static final HostPaths PATHS = HostPaths.realHost();

  private SwitchOverBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    if (runs < 1 || runs > 50) {
      throw new IllegalArgumentException("runs must be within 1..50: " + runs);
    }
    requireFree(KubeletStandIn.DEFAULT_HEALTHZ_PORT);
    DebianRuntimes.ContainerdPair containerd = DebianRuntimes.containerd();
    ArtifactSet.Runtime older = containerd.older();
    ArtifactSet.Runtime newer = containerd.newer();
    ArtifactSet.Runtime runc = DebianRuntimes.runc();
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "noneops");
    ArtifactRepository repository = new ArtifactRepository(cache.resolve("system-test-artifacts"));
    ArtifactSet old =
        new ArtifactSet(K8S, older, runc, "1.5.1", "1.31.0", "1.11.3", "amd64", false);
    builder(repository, cache, older).publish(old);
    builder(repository, cache, newer).publish(old.withContainerd(newer));

    String loadBefore = LoadAverage.oneMinute();
    Samples ours = new Samples("ms");
    Samples baseline = new Samples("ms");
    Samples oursLate = new Samples("ms");
    Samples baselineLate = new Samples("ms");
    Samples oursRest = new Samples("ms");
    Samples baselineRest = new Samples("ms");
    Map<String, Samples> steps = new LinkedHashMap<>();
    FloorSwitch.Series oursPhases = new FloorSwitch.Series();
    FloorSwitch.Series floorPhases = new FloorSwitch.Series();
    FloorSwitch.Series systemctlPhases = new FloorSwitch.Series();
    String from;
    String to;
    Duration boot;
    try (ArtifactServer server = ArtifactServer.serve(repository.root());
        SystemdSandbox sandbox = SystemdSandbox.boot("bench-switch");
        DbusSystemd systemd = DbusSystemd.connect(sandbox.busAddress())) {
      boot = sandbox.bootTime();
      HostPorts ports = SandboxHostPorts.create(new SandboxRoot(sandbox.pid()), systemd);
      AgentConfig base = config(ports, json(server, older.version(), runc));
      AgentConfig upgraded = config(ports, json(server, newer.version(), runc));
      from = versionOf(ports, base);
      to = versionOf(ports, upgraded);
      FloorSwitch floor = new FloorSwitch(sandbox, systemd, LAYOUT, KUBELET_READY);
      try {
        bootstrap(ports, base);
        long lastServed = floor.served(0);
        for (int i = 0; i < runs; i++) {
          Window noneops;
          FloorSwitch.Phases upgrade;
          try {
            upgrade = upgradeWithNoneops(ports, base, upgraded, steps);
            noneops = served(sandbox, new Window(upgrade.start(), upgrade.seen(), 0));
            upgrade = upgrade.withServed(noneops.served(), false);
          } catch (RuntimeException e) {
            for (String unit :
                List.of("localdns.service", "containerd.service", "kubelet.service")) {
              System.err.println("journal of " + unit + ":\n" + sandbox.journal(unit));
            }
            throw e;
          }
          noneops.addTo(ours, oursLate, oursRest);
          oursPhases.add(upgrade);
          // the stack noneops stopped had run this long since it answered (the upgrade's
          // preparation); each floor stops a stack of the same age, as a stop's length depends on
          // it
          long age = Math.max(0, upgrade.start() - lastServed);
          Window script = served(sandbox, switchWithScript(sandbox, from));
          script.addTo(baseline, baselineLate, baselineRest);
          FloorSwitch.sleepUntil(script.served() + age);
          FloorSwitch.Phases there = floor.byDbus(to);
          floorPhases.add(there);
          FloorSwitch.sleepUntil(there.served() + age);
          FloorSwitch.Phases back = floor.bySystemctl(from);
          systemctlPhases.add(back);
          lastServed = back.served();
          new AppliedConfigStore(ports.files(), PATHS).write(base);
          System.err.printf(
              "switch-over run %d: noneops %.0f ms (saw healthz %.1f ms late), script %.0f ms (%.1f ms late),"
                  + " floor %.0f ms (%s), back by systemctl %.0f ms (%s)%n",
              i + 1,
              noneops.millis(),
              noneops.lateMillis(),
              script.millis(),
              script.lateMillis(),
              there.windowMillis(),
              there,
              back.windowMillis(),
              back);
        }
      } finally {
        reset(ports);
      }
    }
    double ratio = ours.median() / baseline.median();
    new Section()
        .heading("1. Upgrade switch-over window on the sandboxed real systemd")
        .paragraph(
            "A systemd booted in [the sandbox](guides/tests.md#the-sandboxed-systemd) (booted in "
                + boot.toMillis() + " ms), a node bootstrapped "
                + "there with Debian's containerd " + older.version() + " (version `" + from
                + "`); the other build is containerd "
                + newer.version() + " (version `" + to
                + "`); kubelet and CoreDNS are the stand-ins, served from a loopback HTTP "
                + "artifact server. Window: from the stop of the old stack until kubelet of the new version is active and "
                + "http://127.0.0.1:10248/healthz answers 200. noneops: `Node.upgrade()` over `DbusSystemd` in a JVM with "
                + "the options `bin/noneops` and the agent's unit give the product's JVM (`"
                + String.join(
                    " ",
                    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> a.startsWith("-XX:TieredStopAtLevel")
                            || a.startsWith("-XX:+UseSerialGC")
                            || a.startsWith("-Xmx"))
                        .toList())
                + "`) (older → newer build, "
                + "then commit), timed from the `upgrade-stop-stack` STARTED event to the `wait-kubelet` COMPLETED event "
                + "(`NodeEvent.at`); it stops the three units in one request (all stop jobs enqueued over D-Bus, then awaited), "
                + "then ends pods, cleans host networking and resets the units' failed state side by side (parallel tasks; the "
                + "LocalDNS link, as the target wants it, is read with one `ip` process and kept), flips `current`, sets up host "
                + "networking (nothing to do for a kept link), enables the units (a no-op without a reload when their "
                + "links exist), looks for staged image archives (none here) and starts localdns, containerd and kubelet in one "
                + "request (kubelet is ordered after containerd, LocalDNS before kubelet only), waits "
                + "for kubelet's ActiveState on systemd's PropertiesChanged signals and then probes healthz in-process every 5 ms "
                + "for the first second, every "
                + TimeoutOptions.DEFAULTS.pollInterval().toMillis()
                + " ms after (production's intervals), kubelet's state meanwhile taken from the same signals. Baseline: a script "
                + "run inside the "
                + "sandbox via `nsenter`, timed by itself with `date +%s%N`: `systemctl stop kubelet containerd localdns`, "
                + "`ln -sfn <version> current.tmp && mv -T current.tmp current`, `systemctl start localdns containerd kubelet`, then "
                + "every 100 ms `systemctl is-active --quiet kubelet && curl -fsS -m 1 http://127.0.0.1:10248/healthz` until both "
                + "succeed (newer → older build, so the two alternate on one node). Alternating, "
                + runs + " runs each.")
        .line(
            "| figure | noneops (Node.upgrade) | baseline (stop, ln -sfn, start, poll every 100 ms) | ratio | goal |")
        .line("|---|---|---|---|---|")
        .line("| switch-over window | " + ours.summary() + " | " + baseline.summary() + " | **"
            + Samples.ratio(ours, baseline) + "** | ≤ " + GOAL + ": **"
            + (ratio <= GOAL ? "met" : "missed")
            + "** |")
        .line("| of which waiting: kubelet's healthz served → seen served | " + oursLate.summary()
            + " | " + baselineLate.summary()
            + " | **" + Samples.ratio(oursLate, baselineLate)
            + "** | event-driven waiting beats polling: **"
            + (oursLate.median() < baselineLate.median() ? "yes" : "no") + "** |")
        .line("| of which the rest: stop, flip, start, kubelet's own start-up | "
            + oursRest.summary() + " | " + baselineRest.summary() + " | "
            + Samples.ratio(oursRest, baselineRest) + " | — |")
        .line("")
        .paragraph(
            "The waiting row is measured against the kubelet stand-in's own journal line giving the instant its healthz "
                + "began answering (`" + KubeletStandIn.SERVING_SINCE.strip()
                + "`, read with `journalctl -u kubelet`); both clocks "
                + "are the host's CLOCK_REALTIME.")
        .paragraph(
            "Where noneops' window goes (median ms of each task completed inside it, nested tasks also counted in their "
                + "parent; `upgrade-clear-host` is its three side-by-side children's wall time): "
                + breakdown(steps) + ".")
        .paragraph(
            "The floor: the same systemd jobs and nothing else, kubelet's healthz counted as seen the instant the "
                + "stand-in's journal line says it began answering, so no detection is paid. Issued over D-Bus from "
                + "the benchmark's JVM (warm, the product's JVM options), older → newer build as noneops goes: "
                + "`DbusSystemd.stopAll` of " + String.join(", ", FloorSwitch.STOP)
                + " on the connection it holds (every stop job enqueued, then awaited), the flip by `symlink(2)` and "
                + "`rename(2)` through the sandbox's root, `DbusSystemd.startAll` of "
                + String.join(", ", FloorSwitch.START)
                + ", timed by `Instant.now()` around each. The way back, "
                + "newer → older, issues the same jobs with `systemctl` from a bash inside the sandbox (entered via "
                + "`nsenter` before the window opens, timed by `$EPOCHREALTIME`, which starts no process): "
                + "`systemctl stop " + String.join(" ", FloorSwitch.STOP)
                + "`, `ln -sfn <version> current.tmp && mv -T current.tmp current`, `systemctl start "
                + String.join(" ", FloorSwitch.START)
                + "`; a `systemctl` process costs more than a call on a "
                + "connection already open, so the D-Bus floor is the lower one and the goal's. Each round runs "
                + "noneops, the script, the floor and its way back, one after another on one node; before its stop, "
                + "each floor waits until the stack has run as long since its healthz answered as the one noneops "
                + "stopped had (the upgrade's own preparation), since a stop's length depends on the stack's age.")
        .line(
            "| figure | noneops (Node.upgrade) | floor (the same jobs over D-Bus, healthz seen when served) "
                + "| ratio | goal |")
        .line("|---|---|---|---|---|")
        .line("| switch-over window | " + ours.summary() + " | " + floorPhases.window.summary()
            + " | **"
            + Samples.ratio(ours, floorPhases.window) + "** | ≤ " + FLOOR_GOAL + ": **"
            + (ours.median() / floorPhases.window.median() <= FLOOR_GOAL ? "met" : "missed")
            + "** |")
        .line("")
        .paragraph(
            "Where the remainder goes: each window cut at the same four instants (medians, ms). noneops: "
                + "`upgrade-stop-stack` started and completed, `start-units` started and completed (`NodeEvent.at`); the "
                + "floor: its own clock around each call or command. kubelet's healthz served is the stand-in's journal "
                + "line for all.")
        .line(
            "| phase | noneops | floor (D-Bus from the JVM) | the same jobs by systemctl | noneops over the floor |")
        .line("|---|---|---|---|---|")
        .line(phaseRow(
            "stop: the stop jobs issued → all done",
            s -> s.stop,
            oursPhases,
            floorPhases,
            systemctlPhases))
        .line(phaseRow(
            "between: noneops' `upgrade-clear-host`, flip, host networking, `enable-units`, image archives; the "
                + "floor's flip",
            s -> s.between,
            oursPhases,
            floorPhases,
            systemctlPhases))
        .line(phaseRow(
            "start: the start jobs issued → all done (kubelet active)",
            s -> s.start,
            oursPhases,
            floorPhases,
            systemctlPhases))
        .line(phaseRow(
            "kubelet active → healthz served (the stand-in's start-up)",
            s -> s.kubeletUp,
            oursPhases,
            floorPhases,
            systemctlPhases))
        .line(phaseRow(
            "healthz served → seen served (detection; none for the floor)",
            s -> s.detection,
            oursPhases,
            floorPhases,
            systemctlPhases))
        .line(phaseRow("window", s -> s.window, oursPhases, floorPhases, systemctlPhases))
        .line("")
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row started and ended: " + loadBefore + " and "
            + LoadAverage.oneMinute()
            + LoadAverage.verdict(loadBefore) + ".")
        .writeTo(sectionFile);
  }

  /**
   * One switch-over, in nanoseconds since the epoch: its start, its end (kubelet seen healthy), and
   * when kubelet's healthz began answering ({@code served}, 0 until known).
   */
  record Window(long start, long end, long served) {
    Window seen(long servedAt) {
      if (servedAt < start || servedAt > end) {
        throw new IllegalStateException(
            "kubelet's healthz was served at " + servedAt + " ns, outside the window " + start
                + ".." + end + ": the journal line is not this run's");
      }
      return new Window(start, end, servedAt);
    }

    double millis() {
      return (end - start) / 1e6;
    }

    double lateMillis() {
      return (end - served) / 1e6;
    }

    void addTo(Samples window, Samples late, Samples rest) {
      window.add(millis());
      late.add(lateMillis());
      rest.add((served - start) / 1e6);
    }
  }

  /**
   * The instant kubelet's stand-in logged its first healthy answer in {@code window}, from the
   * sandbox's journal, which receives the line a little after the stand-in wrote it.
   */
  private static Window served(SystemdSandbox sandbox, Window window) throws InterruptedException {
    long newest = 0;
    for (int attempt = 0; attempt < 50; attempt++) {
      newest = FloorSwitch.newestServed(sandbox);
      if (newest >= window.start()) {
        return window.seen(newest);
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "kubelet's stand-in logged no '" + KubeletStandIn.SERVING_SINCE.strip()
            + "' line within the window " + window + " (newest: " + newest + ")");
  }

  private static long epochNanos(Instant at) {
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }

  /**
   * One noneops upgrade, committed; the window between the stop step's start and kubelet's wait
   * completing, with the stop's end and the start's beginning and end ({@code start-units}).
   */
  private static FloorSwitch.Phases upgradeWithNoneops(
      HostPorts ports, AgentConfig base, AgentConfig upgraded, Map<String, Samples> steps)
      throws IOException {
    List<NodeEvent> events = new CopyOnWriteArrayList<>();
    Node node = SandboxNodes.node(
        ports, Optional.of(upgraded), Optional.of(base), KUBELET_READY, events::add);
    node.upgrade();
    new AppliedConfigStore(ports.files(), PATHS).write(upgraded);
    node.commit();
    Instant stop = events.stream()
        .filter(e -> e.task().equals("upgrade-stop-stack") && e.kind() == NodeEvent.Kind.STARTED)
        .map(NodeEvent::at)
        .findFirst()
        .orElseThrow(() ->
            new IllegalStateException("the upgrade sent no upgrade-stop-stack STARTED event"));
    Instant ready = events.stream()
        .filter(e -> e.task().equals("wait-kubelet") && e.kind() == NodeEvent.Kind.COMPLETED)
        .map(NodeEvent::at)
        .reduce((a, b) -> b)
        .orElseThrow(
            () -> new IllegalStateException("the upgrade sent no wait-kubelet COMPLETED event"));
    for (NodeEvent e : events) {
      if (e.kind() == NodeEvent.Kind.COMPLETED
          && !e.at().isBefore(stop)
          && !e.at().isAfter(ready)) {
        steps.computeIfAbsent(e.task(), t -> new Samples("ms")).add(e.duration().toNanos() / 1e6);
      }
    }
    Instant stopped = at(events, "upgrade-stop-stack", NodeEvent.Kind.COMPLETED);
    Instant starting = at(events, "start-units", NodeEvent.Kind.STARTED);
    Instant started = at(events, "start-units", NodeEvent.Kind.COMPLETED);
    return new FloorSwitch.Phases(
        epochNanos(stop),
        epochNanos(stopped),
        epochNanos(starting),
        epochNanos(started),
        0,
        epochNanos(ready));
  }

  /** The last {@code kind} event of {@code task}. */
  private static Instant at(List<NodeEvent> events, String task, NodeEvent.Kind kind) {
    return events.stream()
        .filter(e -> e.task().equals(task) && e.kind() == kind)
        .map(NodeEvent::at)
        .reduce((a, b) -> b)
        .orElseThrow(
            () -> new IllegalStateException("the upgrade sent no " + task + " " + kind + " event"));
  }

  /** The goal: noneops' window at most this multiple of the floor's. */
  static final double FLOOR_GOAL = 1.05;

  private static String phaseRow(
      String phase,
      Function<FloorSwitch.Series, Samples> figure,
      FloorSwitch.Series ours,
      FloorSwitch.Series floor,
      FloorSwitch.Series systemctl) {
    double over = figure.apply(ours).median() - figure.apply(floor).median();
    return "| " + phase + " | " + figure.apply(ours).medianText() + " | "
        + figure.apply(floor).medianText() + " | " + figure.apply(systemctl).medianText() + " | "
        + (over >= 0 ? "+" : "−") + Samples.fmt(Math.abs(over)) + " ms |";
  }

  private static String breakdown(Map<String, Samples> steps) {
    return steps.entrySet().stream()
        .map(e -> "`" + e.getKey() + "` " + Samples.fmt(e.getValue().median()))
        .collect(Collectors.joining(", "));
  }

  /** The operators' script, inside the sandbox, switching {@code current} to {@code version}; its own window. */
  private static Window switchWithScript(SystemdSandbox sandbox, String version) throws Exception {
    String script = String.join(
        "\n",
        "set -eu",
        "cd '" + LAYOUT.root() + "'",
        "t0=$(date +%s%N)",
        "systemctl stop kubelet containerd localdns",
        "ln -sfn '" + version + "' current.tmp && mv -T current.tmp current",
        "systemctl start localdns containerd kubelet",
        "deadline=$(( $(date +%s) + " + KUBELET_READY.toSeconds() + " ))",
        "until systemctl is-active --quiet kubelet && curl -fsS -m 1 -o /dev/null http://127.0.0.1:10248/healthz; do",
        "  [ \"$(date +%s)\" -lt \"$deadline\" ] || { echo 'kubelet not ready in time' >&2; exit 3; }",
        "  sleep 0.1",
        "done",
        "t1=$(date +%s%N)",
        "echo \"$t0 $t1\"");
    List<String> command = sandbox.inside(List.of("sh", "-c", script));
    Shell.Result r = Shell.check(command, KUBELET_READY.plusSeconds(60));
    String[] times = r.out().strip().split(" ");
    return new Window(Long.parseLong(times[0]), Long.parseLong(times[1]), 0);
  }

  private static NodeArtifactBuilder builder(
      ArtifactRepository repository, Path cache, ArtifactSet.Runtime containerd)
      throws IOException {
    DebianPackages debian = new DebianPackages(
        cache.resolve("debian").resolve("containerd-" + containerd.debianVersion()));
    return new NodeArtifactBuilder(repository, debian, StandInScripts.ofThisJvm());
  }

  /** Bootstrap as the CLI does it, without the host kernel's modules and sysctls (the sandbox's /proc/sys is read-only). */
  private static void bootstrap(HostPorts ports, AgentConfig config) throws IOException {
    Node node = SandboxNodes.node(
        ports, Optional.of(config), Optional.empty(), KUBELET_READY, NodeEvents.NONE);
    node.provision();
    ConfigureResult changes = node.configure();
    node.start(node.running(), changes);
    new AppliedConfigStore(ports.files(), PATHS).write(config);
  }

  /** Reset in the reset order, removing LocalDNS's interface from the host network namespace the sandbox shares. */
  private static void reset(HostPorts ports) throws IOException, InterruptedException {
    Teardown teardown = SandboxNodes.teardown(ports);
    if (!teardown.present()) {
      return;
    }
    teardown.stop();
    teardown.removeConfig();
    String link = ports
        .commands()
        .run(Command.of(Duration.ofSeconds(10), "ip", "-d", "link", "show", "dev", DNS_INTERFACE))
        .stdout();
    if (link.contains("dummy") || link.contains(DummyLinkStandIn.STAND_IN_TYPE)) {
      ports
          .commands()
          .run(Command.of(Duration.ofSeconds(10), "ip", "link", "delete", "dev", DNS_INTERFACE));
    }
    new AppliedConfigStore(ports.files(), PATHS).remove();
    teardown.destroy();
  }

  /** The sandbox shares the host's network: kubelet's healthz port must be ours alone, or both methods would probe a stranger. */
  private static void requireFree(int port) throws IOException {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.getLocalPort();
    } catch (BindException e) {
      throw new IllegalStateException(
          "127.0.0.1:" + port
              + " (kubelet's healthz port) is in use by another process; this benchmark needs it",
          e);
    }
  }

  private static String versionOf(HostPorts ports, AgentConfig config) throws IOException {
    Overrides layout = Overrides.builder().layout(LAYOUT).build();
    return new Node(Params.builder(ports).config(config).overrides(layout).build())
        .goalState()
        .rootFs()
        .versionName();
  }

  private static AgentConfig config(HostPorts ports, String json) throws IOException {
    return AgentConfigParser.parseAndValidate(
        json.getBytes(UTF_8), ports.facts().read().arch());
  }

  /** The example node, downloading from the artifact server, LocalDNS on its own interface. */
  private static String json(ArtifactServer server, String containerd, ArtifactSet.Runtime runc) {
    String json = ConfigJson.of(K8S)
        .withContainerd(containerd)
        .withRunc(runc.version())
        .withDownloadsFrom(server.uri().toString())
        .withLocalDnsBindAddress(DNS_ADDRESS)
        .json();
    String bind = "\"BindAddress\": \"" + DNS_ADDRESS + "\"";
    if (!json.contains(bind)) {
      throw new IllegalStateException(
          "the example configuration has no LocalDNS bind address to extend: " + json);
    }
    return json.replace(bind, bind + ", \"InterfaceName\": \"" + DNS_INTERFACE + "\"");
  }
}
