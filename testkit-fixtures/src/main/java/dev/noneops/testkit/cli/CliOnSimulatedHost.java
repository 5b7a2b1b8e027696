package dev.noneops.testkit.cli;

import dev.noneops.cli.AgentBuilds;
import dev.noneops.cli.CliEnvironment;
import dev.noneops.cli.HostSession;
import dev.noneops.cli.NoneopsCli;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.health.HealthProbes;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.artifacts.SimulatedArtifacts;
import dev.noneops.testkit.node.BootLog;
import dev.noneops.testkit.node.SimulatedNode;
import dev.noneops.testkit.systemd.UnitEvent;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import picocli.CommandLine;

/**
 * The {@code noneops} CLI driven in-process against a {@link SimulatedHost}: the commands get the
 * simulated ports through their {@link dev.noneops.cli.HostConnector}, exactly as the real wiring
 * hands them the kernel and D-Bus adapters. Configurations are written into the simulated file
 * system and their artifacts published in its repository; a version can be marked as one whose
 * kubelet never becomes ready, to make an upgrade roll back.
 */
public final class CliOnSimulatedHost {
  /** Where the CLI reads its configuration by default. */
  public static final Path CONFIG = Path.of("/etc/unbounded/agent/config.json");

  private final SimulatedHost host;
  private final Layout layout = Layout.defaultLayout();
  private final HostPaths paths = HostPaths.realHost();
  private final Set<String> kubeletNeverReady = ConcurrentHashMap.newKeySet();
  private volatile boolean root = true;
  private volatile boolean withAgent;
  private final List<Run> gateRuns = new CopyOnWriteArrayList<>();

  public CliOnSimulatedHost(SimulatedHost host) {
    this.host = host;
  }

  public SimulatedHost host() {
    return host;
  }

  public Layout layout() {
    return layout;
  }

  /** Whether the CLI runs as root (default true), as it believes and as the host's facts say. */
  public CliOnSimulatedHost asRoot(boolean asRoot) {
    this.root = asRoot;
    host.facts().privileged(asRoot);
    return this;
  }

  /**
   * From now on a bootstrap installs an agent build ({@link SimulatedNode#agent()}'s stand-in jar,
   * watching the configuration file the bootstrap reads) with its recovery gate and daemon units,
   * and the agent's launcher ({@link HostPaths#agentLauncher()}) runs this CLI in-process for the
   * command lines those units give it: {@code recover --at-boot} is the CLI's own command (each run
   * is kept, see {@link #gateRuns()}); {@code daemon --config <file>} is up at once and runs no
   * loop (what the daemon does is {@code NodeDaemon}'s, which its own suites drive step by step);
   * anything else exits 2. The launcher stays across crashes.
   */
  public CliOnSimulatedHost withAgent() {
    withAgent = true;
    host.systemd().installProgram(paths.agentLauncher(), this::agentCommand);
    return this;
  }

  private int agentCommand(List<String> argv) {
    List<String> args = argv.subList(1, argv.size());
    if (args.equals(List.of("recover", "--at-boot"))) {
      Run gate = run("recover", "--at-boot");
      gateRuns.add(gate);
      return gate.exitCode();
    }
    if (args.size() == 3 && args.get(0).equals("daemon") && args.get(1).equals("--config")) {
      return 0;
    }
    return 2;
  }

  /** What the recovery gate's runs through the agent's launcher printed, oldest first. */
  public List<Run> gateRuns() {
    return List.copyOf(gateRuns);
  }

  /**
   * Boots the host as systemd would after a {@link SimulatedHost#crash()}: every enabled unit
   * starts, each after the units it is ordered after, so the recovery gate of a node bootstrapped
   * {@link #withAgent()} runs before the stack.
   *
   * @return what the boot did to units, in order
   */
  public BootLog boot() {
    int before = host.systemd().history().size();
    host.systemd().bootEnabledUnits();
    List<UnitEvent> history = host.systemd().history();
    return new BootLog(history.subList(before, history.size()));
  }

  /** kubelet of {@code version} never answers its healthz (while {@code current} names it). */
  public CliOnSimulatedHost kubeletNeverReady(String version) {
    kubeletNeverReady.add(version);
    return this;
  }

  /**
   * Writes {@code json} as the configuration at {@code path} in the simulated file system and
   * publishes the artifacts it downloads; returns its version name.
   */
  public String configure(Path path, String json) {
    try {
      host.ports().files().createDirectories(path.getParent(), 0750);
      host.ports().files().writeDurably(path, json, 0600);
      AgentConfig config =
          AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
      MachineGoalState goal = new Node(Params.builder(host.ports())
              .config(config)
              .overrides(Overrides.builder().layout(layout).build())
              .build())
          .goalState();
      SimulatedArtifacts.publish(host, goal);
      return goal.rootFs().versionName();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The environment the commands get: this host's ports, the default layout, root as set. */
  public CliEnvironment environment() {
    return new CliEnvironment(
        () -> HostSession.unmanaged(ports(), layout, paths),
        () -> root,
        "0.0.0-simulated",
        new AgentBuilds() {
          @Override
          public Optional<AgentSetup> forConfig(Path configFile) {
            return withAgent ? Optional.of(agentWatching(configFile)) : Optional.empty();
          }

          @Override
          public Path java() {
            return SimulatedNode.agent().java();
          }
        });
  }

  private static AgentSetup agentWatching(Path configFile) {
    AgentSetup agent = SimulatedNode.agent();
    return new AgentSetup(
        agent.buildId(), agent.jar(), agent.java(), agent.jvmOptions(), configFile);
  }

  /** Runs {@code noneops <args>} on the command line {@code Main} builds for them and returns its exit code and output. */
  public Run run(String... args) {
    CommandLine cli = NoneopsCli.commandLine(environment(), args);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  /** The active version as the simulated disk says, read without a port call. */
  public Optional<String> activeVersion() {
    synchronized (host.monitor()) {
      try {
        return host.fs().lstat(layout.current()).isPresent()
            ? Optional.of(host.fs().readLink(layout.current()))
            : Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private HostPorts ports() {
    HostPorts p = host.ports();
    HealthProbes probes = new HealthProbes() {
      @Override
      public boolean httpOk(URI url, Duration timeout) {
        if (url.equals(NodeConstants.KUBELET_HEALTHZ)
            && activeVersion().filter(kubeletNeverReady::contains).isPresent()) {
          p.probes().httpOk(url, timeout);
          return false;
        }
        return p.probes().httpOk(url, timeout);
      }

      @Override
      public boolean dnsAnswers(String address, int port, String name, Duration timeout) {
        return p.probes().dnsAnswers(address, port, name, timeout);
      }
    };
    return new HostPorts(
        p.files(),
        p.systemd(),
        p.commands(),
        p.processes(),
        p.cgroups(),
        p.mounts(),
        p.downloads(),
        probes,
        p.facts(),
        p.clock(),
        p.network(),
        p.kernel(),
        p.notifier());
  }

  /**
   * One run of the CLI.
   *
   * @param exitCode what {@code main} would exit with
   * @param out stdout (results)
   * @param err stderr (progress, errors)
   */
  public record Run(int exitCode, String out, String err) {}
}
