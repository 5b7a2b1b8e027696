package dev.noneops.testkit.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.daemon.RecoveryGate;
import dev.noneops.core.daemon.RecoveryGate.RecoveryGateException;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.DownloadOverrides;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.artifacts.SimulatedArtifacts;
import dev.noneops.testkit.artifacts.TarGz;
import dev.noneops.testkit.artifacts.UpstreamChecksums;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.health.SimHealthProbes;
import dev.noneops.testkit.host.SimHostFacts;
import dev.noneops.testkit.systemd.UnitEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.helpers.NOPLogger;

/**
 * A none node on a {@link SimulatedHost}, for suites: configurations to bootstrap and upgrade
 * between, their artifacts published in the simulated repository, nodes bound to them (with a
 * kubelet that never gets ready in chosen versions, or units that fail to start), the applied
 * configuration, what a crash left (the active version and the shared files, read from the
 * simulated disk), and the unit jobs and port calls the node made. With its agent installed, the
 * host boots as systemd boots it ({@link #boot()}, {@link #powerCutAndBoot()}): the agent's
 * launcher behaves as the real {@code noneops}, so the recovery gate runs before the stack.
 */
public final class SimulatedNode {
  /** A self-signed EC certificate (CN=test-cluster-ca), PEM, base64. */
  public static final String CA_BASE64 =
      "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJpakNDQVRHZ0F3SUJBZ0lVQ1l0L3pheWM3TjJqNUZzQTBoYmRjVUF5T29Nd0NnWUlLb1pJemowRUF3SXcKR2pFWU1CWUdBMVVFQXd3UGRHVnpkQzFqYkhWemRHVnlMV05oTUNBWERUSTJNVEV6TURFd016UTBNbG9ZRHpJeApNall4TVRBMk1UQXpORFF5V2pBYU1SZ3dGZ1lEVlFRRERBOTBaWE4wTFdOc2RYTjBaWEl0WTJFd1dUQVRCZ2NxCmhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUlFuQlFQQzlWaVF6dml4V0dlVHpCMFg2b2Z5dE05QWNSdDBsSWMKQXN3RjlaVGFsOWl0QnBzOWErWlU5cHRzMkMxZ2hJT0kzenBrUW5oUmVBaldhb2JzbzFNd1VUQWRCZ05WSFE0RQpGZ1FVSkRGUkQ1YjJvckhNRk01c2poQkIvM0R0TFkwd0h3WURWUjBqQkJnd0ZvQVVKREZSRDViMm9ySE1GTTVzCmpoQkIvM0R0TFkwd0R3WURWUjBUQVFIL0JBVXdBd0VCL3pBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCYm9WTDMKU0xvZE1wMFNtNE1MS0xnbW9RMU1qVVpoaTI0T3JUNk1Ea0tJUHdJZ1lWdk15cFN0S2xoT25OaEEyV2dtalZFUwo2TnVYWUNKRzd1Z0pKUHlSdU5jPQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

  /** The stack's units, in start order. */
  public static final List<String> STACK = HostPaths.STACK_UNITS;

  public final SimulatedHost host;
  public final Layout layout = Layout.defaultLayout();
  public final HostPaths paths = HostPaths.realHost();
  /** Versions whose kubelet never becomes ready. */
  public final Set<String> kubeletNeverReady = new HashSet<>();
  /** Whether this fixture made kubelet's healthz refuse, for a version in {@link #kubeletNeverReady}. */
  private boolean refusedKubelet;

  public SimulatedNode() {
    this(SimulatedHost.create());
  }

  public SimulatedNode(SimulatedHost host) {
    this.host = host;
  }

  /** A valid configuration: Kubernetes {@code k8s}, containerd {@code containerd} (empty for the default), one label. */
  public static AgentConfig config(String k8s, String containerd, String poolLabel) {
    return config(k8s, containerd, poolLabel, "{}");
  }

  /** {@link #config(String, String, String)} with the {@code LocalDNS} object {@code localDns}. */
  public static AgentConfig config(
      String k8s, String containerd, String poolLabel, String localDns) {
    String json = """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v%s" },
          "Kubelet": {
            "ApiServer": "api.example.com:6443",
            "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
            "Labels": { "example.com/pool": "%s" },
            "RegisterWithTaints": []
          },
          "CRI": { "Containerd": { "Version": "%s" }, "Runc": {} },
          "CNI": {},
          "LocalDNS": %s,
          "OCIImage": ""
        }
        """.formatted(CA_BASE64, k8s, poolLabel, containerd, localDns);
    return AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
  }

  /** A valid configuration of Kubernetes 1.31.4 with default components, one node label and one taint. */
  public static AgentConfig config() {
    return config(Map.of("example.com/pool", "blue"));
  }

  /** {@link #config()} with the given node labels. */
  public static AgentConfig config(Map<String, String> labels) {
    return config(labels, "{}");
  }

  /** {@link #config()} with the given {@code Downloads} object. */
  public static AgentConfig configWithDownloads(String downloadsJson) {
    return config(Map.of("example.com/pool", "blue"), downloadsJson);
  }

  private static AgentConfig config(Map<String, String> labels, String downloadsJson) {
    StringBuilder labelJson = new StringBuilder();
    new TreeMap<>(labels)
        .forEach((k, v) -> labelJson
            .append(labelJson.length() == 0 ? "" : ", ")
            .append('"')
            .append(k)
            .append("\": \"")
            .append(v)
            .append('"'));
    String json = """
        {
          "MachineName": "worker-1",
          "Cluster": { "CaCertBase64": "%s", "ClusterDNS": "10.0.0.10", "Version": "v1.31.4" },
          "Kubelet": {
            "ApiServer": "https://api.example.com:6443",
            "Auth": { "BootstrapToken": "abcdef.0123456789abcdef" },
            "Labels": { %s },
            "RegisterWithTaints": ["dedicated=infra:NoSchedule"]
          },
          "Downloads": %s
        }
        """.formatted(CA_BASE64, labelJson, downloadsJson);
    return AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
  }

  /** The goal state of {@code config} on this fixture's layout and a host of the default facts. */
  public MachineGoalState goal(AgentConfig config) {
    HostPorts p = host.ports();
    HostPorts defaultFacts = new HostPorts(
        p.files(),
        p.systemd(),
        p.commands(),
        p.processes(),
        p.cgroups(),
        p.mounts(),
        p.downloads(),
        p.probes(),
        new DefaultFacts(p.facts()),
        p.clock(),
        p.network(),
        p.kernel(),
        p.notifier());
    return new Node(Params.builder(defaultFacts)
            .config(config)
            .overrides(Overrides.builder().layout(layout).build())
            .build())
        .goalState();
  }

  public String versionOf(AgentConfig config) {
    return goal(config).rootFs().versionName();
  }

  /**
   * Publishes every artifact of {@code goal} as {@link SimulatedArtifacts} builds them, with the
   * checksums it expects.
   */
  public SimulatedNode publish(MachineGoalState goal) {
    SimulatedArtifacts.publish(host, goal);
    return this;
  }

  /**
   * Publishes every artifact {@code config} installs, with the checksums it expects: small
   * scripts naming the version, built once per version and shared by every fixture.
   */
  public SimulatedNode publish(AgentConfig config) {
    SimArtifactRepository repo = host.artifacts();
    for (Map.Entry<URI, byte[]> e :
        PUBLISHED.computeIfAbsent(versionOf(config), v -> artifacts(config)).entrySet()) {
      repo.publish(e.getKey(), e.getValue());
    }
    return this;
  }

  /** Every artifact document of a version, by URL (built once per version, shared by every lab). */
  private static final Map<String, Map<URI, byte[]>> PUBLISHED = new ConcurrentHashMap<>();

  private Map<URI, byte[]> artifacts(AgentConfig config) {
    Map<URI, byte[]> out = new LinkedHashMap<>();
    String tag = config.cluster().version() + "/" + versionOf(config);
    for (Artifact a : goal(config).rootFs().artifacts()) {
      byte[] bytes = a.install() instanceof Artifact.Install.Tarball t
          ? tarball(a.name(), t, tag)
          : script(((Artifact.Install.Binary) a.install()).fileName(), tag);
      out.put(a.url(), bytes);
      if (a.checksum() instanceof Artifact.Checksum.Published p) {
        String hex = SimArtifactRepository.sha256Hex(bytes);
        String document = p.entry().isEmpty()
            ? hex + "\n"
            : UpstreamChecksums.merged(
                new String(out.getOrDefault(p.url(), new byte[0]), StandardCharsets.UTF_8),
                p.entry(),
                hex);
        out.put(p.url(), document.getBytes(StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static byte[] script(String name, String tag) {
    return ("#!/bin/sh\n# " + name + " " + tag + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] tarball(String artifact, Artifact.Install.Tarball t, String tag) {
    List<String> names = switch (artifact) {
      case "containerd" -> List.of("containerd", "containerd-shim-runc-v2", "ctr");
      case "cni-plugins" -> List.of("bridge", "host-local", "loopback");
      default -> t.only().isEmpty() ? List.of(artifact) : t.only();
    };
    TarGz.Builder b = TarGz.builder();
    for (String name : names) {
      b.file(t.entryPrefix() + name, script(name, tag), 0755);
    }
    return b.build();
  }

  /** A node bound to {@code config}, whose rollback configuration is {@code previous}. */
  public Node node(AgentConfig config, Optional<AgentConfig> previous) {
    return node(config, previous, DownloadOverrides.NONE);
  }

  /** A node bound to {@code config} with {@code downloads} over its own, whose rollback configuration is {@code previous}. */
  public Node node(
      AgentConfig config, Optional<AgentConfig> previous, DownloadOverrides downloads) {
    Params.Builder b = Params.builder(host.ports()).config(config).downloads(downloads);
    previous.ifPresent(b::previous);
    return node(b);
  }

  /** A node bound to {@code goal}. */
  public Node node(MachineGoalState goal) {
    return node(Params.builder(host.ports()).goalState(goal));
  }

  /** A node of {@code params}, on this fixture's layout and with its kubelet readiness wait. */
  public Node node(Params.Builder params) {
    Node[] node = new Node[1];
    node[0] = new Node(params
        .log(NOPLogger.NOP_LOGGER)
        .overrides(Overrides.builder()
            .layout(layout)
            .waitKubelet(() -> awaitKubelet(node[0]))
            .build())
        .build());
    return node[0];
  }

  public Node node(AgentConfig config) {
    return node(config, Optional.empty());
  }

  /**
   * kubelet's readiness wait, through the real bounded wait of the node, with the healthz answer
   * decided by the version kubelet runs from: one listed in {@link #kubeletNeverReady} never
   * answers. The probes are left as the test set them while no version is listed.
   */
  private void awaitKubelet(Node node) throws InterruptedException {
    boolean bad = activeVersionRaw().filter(kubeletNeverReady::contains).isPresent();
    if (bad) {
      host.probes().setHttp(NodeConstants.KUBELET_HEALTHZ, SimHealthProbes.Answer.REFUSED);
      refusedKubelet = true;
    } else if (refusedKubelet) {
      host.probes().reset();
      refusedKubelet = false;
    }
    node.awaitKubeletReady();
  }

  /**
   * Whether {@code call} asks systemd to start {@code unit}: a {@code start} of it, or a
   * {@code startAll} naming it among others (the node starts kubelet beside containerd when no
   * image archive is staged).
   */
  public static boolean startsUnit(PortCall call, String unit) {
    return call.is("systemd.start", unit)
        || (call.is("systemd.startAll") && call.args().contains(unit));
  }

  /** Makes every start of {@code unit} fail while {@code current} names {@code version}. */
  public void failStartWhileActive(String unit, String version) {
    host.faults()
        .add(FaultRule.when(call -> startsUnit(call, unit)
                && activeVersionRaw().filter(version::equals).isPresent())
            .failWith(call -> new SystemdException(
                SystemdException.Kind.OTHER,
                unit,
                "Job for " + unit + " failed because the control process exited with error code")));
  }

  /** The active version read from the simulated disk directly (not a port call, so neither journaled nor a crash point). */
  public Optional<String> activeVersionRaw() {
    synchronized (host.monitor()) {
      try {
        if (host.fs().lstat(layout.current()).isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(host.fs().readLink(layout.current()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Bootstrap as the agent does it: provision, configure, kernel modules and sysctls, start, persist the applied config. */
  public Node bootstrap(AgentConfig config) {
    publish(config);
    Node node = node(config);
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(false, changes);
    persistApplied(config);
    return node;
  }

  /**
   * Bootstrap as the agent's steps do it, the applied configuration left to the caller: the goal's
   * artifacts published ({@link #publish(MachineGoalState)}), then provision, configure, kernel
   * modules and sysctls, start.
   */
  public Node bootstrap(MachineGoalState goal) {
    publish(goal);
    Node node = node(goal);
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(false, changes);
    return node;
  }

  /** The desired configuration file the agent's daemon watches on this fixture's host. */
  public static final Path AGENT_CONFIG_FILE = Path.of("/etc/noneops/config.json");

  /** The build id of {@link #agent()}. */
  public static final String AGENT_BUILD = "0.1.0-0123456789ab";

  private static final byte[] AGENT_JAR =
      "simulated noneops agent jar\n".getBytes(StandardCharsets.UTF_8);

  /**
   * The bytes of {@link #agent()}'s jar, a copy each time (not a runnable jar: what the launcher
   * does on a simulated host is {@link #installAgentLauncher()}'s).
   */
  public static byte[] agentJar() {
    return AGENT_JAR.clone();
  }

  /** The agent build a bootstrap installs on this fixture's host, watching {@link #AGENT_CONFIG_FILE}. */
  public static AgentSetup agent() {
    return new AgentSetup(
        AGENT_BUILD,
        AGENT_JAR::clone,
        Path.of("/usr/lib/jvm/java-17/bin/java"),
        List.of("-Xmx64m"),
        AGENT_CONFIG_FILE,
        SimulatedNode::agentManPages);
  }

  /** The man pages of {@link #agent()}: {@code noneops.1} and {@code noneops-status.1}. */
  public static Map<String, byte[]> agentManPages() {
    return Map.of(
        "noneops.1", ".TH \"NONEOPS\" \"1\"\n".getBytes(StandardCharsets.UTF_8),
        "noneops-status.1", ".TH \"NONEOPS\\-STATUS\" \"1\"\n".getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Bootstrap as {@code noneops bootstrap} does it, installing {@link #agent()} with its recovery
   * gate and daemon unit; {@code config} is also written at {@link #AGENT_CONFIG_FILE}.
   */
  public Node bootstrapWithAgent(AgentConfig config) {
    publish(config);
    writeDesired(config);
    installAgentLauncher();
    Node node = node(Params.builder(host.ports()).config(config).agent(agent()));
    node.bootstrap(true);
    return node;
  }

  /**
   * Runs {@code registers} each time the host's {@code kubelet.service} starts (a restart, a boot,
   * a start after an upgrade): what a kubelet does once per start of its process, registering its
   * Node, is wired to a simulated cluster this way.
   */
  public SimulatedNode onKubeletStart(Runnable registers) {
    host.systemd().onEvent(event -> {
      if (event.unit().equals(HostPaths.KUBELET_UNIT) && event.event().equals("started")) {
        registers.run();
      }
    });
    return this;
  }

  /** The lines the recovery gate wrote to its journal, one a run, oldest first (kept across crashes). */
  private final List<String> gateJournal = new CopyOnWriteArrayList<>();

  /**
   * Gives the agent's launcher ({@link HostPaths#agentLauncher()}, which the agent's units run)
   * the behaviour of the real {@code noneops} for the command lines those units give it:
   *
   * <ul>
   *   <li>{@code recover --at-boot} runs the {@link #recoveryGate()} and exits 0, or 1 when it
   *       fails with {@link RecoveryGateException}; either way its line is in {@link #gateJournal()};
   *   <li>{@code daemon --config <file>} starts and runs on (it is ready at once): what the
   *       daemon does, its start-up recovery and following its file, is {@code NodeDaemon}'s, which
   *       suites drive directly and step by step rather than from inside a unit's start job;
   *   <li>anything else exits 2, as a command line the real one does not accept.
   * </ul>
   *
   * A bootstrap with the agent installs it; a fixture on a host laid from a disk image installs
   * it before it boots ({@link #boot()} does). The program stays across crashes.
   */
  public SimulatedNode installAgentLauncher() {
    host.systemd().installProgram(paths.agentLauncher(), this::agentCommand);
    return this;
  }

  private int agentCommand(List<String> argv) {
    List<String> args = argv.subList(1, argv.size());
    if (args.equals(List.of("recover", "--at-boot"))) {
      try {
        gateJournal.add(recoveryGate().run().line());
        return 0;
      } catch (RecoveryGateException e) {
        gateJournal.add(e.getMessage());
        return 1;
      }
    }
    if (args.size() == 3 && args.get(0).equals("daemon") && args.get(1).equals("--config")) {
      return 0;
    }
    return 2;
  }

  /**
   * The recovery gate as {@code noneops recover --at-boot} runs it on this fixture's host: a node
   * bound to the applied configuration (as its configuration and as the previous one), on this
   * fixture's layout and with its kubelet readiness wait.
   */
  public RecoveryGate recoveryGate() {
    return new RecoveryGate(
        host.ports().files(),
        layout,
        paths,
        host.ports().clock(),
        applied -> node(applied, Optional.of(applied)));
  }

  /** What the recovery gate's runs through {@link #installAgentLauncher() the launcher} wrote, oldest first. */
  public List<String> gateJournal() {
    return List.copyOf(gateJournal);
  }

  /**
   * Boots the host as systemd would: the agent's launcher behaves as the real one
   * ({@link #installAgentLauncher()}), then every enabled unit starts, each after the units it is
   * ordered after, so the recovery gate runs before the stack. A crash planned at one of the
   * gate's port calls escapes as the {@code SimulatedCrash}: power was lost during the boot.
   *
   * @return what the boot did to units, in order
   */
  public BootLog boot() {
    installAgentLauncher();
    int before = host.systemd().history().size();
    host.systemd().bootEnabledUnits();
    List<UnitEvent> history = host.systemd().history();
    return new BootLog(history.subList(before, history.size()));
  }

  /** Power loss ({@link SimulatedHost#crash()}), then {@link #boot()}. */
  public BootLog powerCutAndBoot() {
    host.crash();
    return boot();
  }

  /** Writes {@code config} as the daemon's desired configuration file. */
  public void writeDesired(AgentConfig config) {
    synchronized (host.monitor()) {
      try {
        host.fs().seedFile(AGENT_CONFIG_FILE, config.toJson(), 0644);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The journal's unit jobs and readiness waits, in order, e.g. {@code systemd.restart(kubelet.service)}. */
  public List<String> unitJobsAndWaits() {
    List<String> out = new ArrayList<>();
    for (PortCall c : host.journal().calls()) {
      boolean job = c.port().equals("systemd")
          && List.of("start", "stop", "restart", "awaitState", "daemonReload", "enable")
              .contains(c.method());
      boolean jobs = c.is("systemd.startAll") || c.is("systemd.stopAll");
      boolean probe = c.port().equals("probes");
      boolean sleep = c.is("clock.sleep");
      if (jobs) {
        out.add(c.name() + "(" + String.join(", ", c.args()) + ")");
      } else if (job || probe || sleep) {
        out.add(c.name() + (c.args().isEmpty() ? "" : "(" + c.args().get(0) + ")"));
      }
    }
    return out;
  }

  /**
   * Makes owned shared files differ from what rendering the applied configuration produces, as
   * on a node running for a while: an operator's tuning comment and tighter mode on containerd's
   * config, a drop-in of an older agent. Only the saved configuration can bring these back.
   */
  public void driftOwnedFiles() {
    synchronized (host.monitor()) {
      try {
        byte[] tuned = (new String(host.fs().read(paths.containerdConfig()), StandardCharsets.UTF_8)
                + "# tuned by the operator\n")
            .getBytes(StandardCharsets.UTF_8);
        host.fs().seedFile(paths.containerdConfig(), tuned, 0640);
        host.fs()
            .seedFile(
                paths.kubeletDropInDir().resolve("05-older-agent.conf"),
                HostPaths.UNIT_MARKER + "\n[Service]\nEnvironment=OLDER=1\n",
                0644);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  public void persistApplied(AgentConfig config) {
    try {
      new AppliedConfigStore(host.ports().files(), paths).write(config);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Optional<AgentConfig> applied() {
    try {
      return new AppliedConfigStore(host.ports().files(), paths).read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every shared file the node's configuration lives in: the whole tree except the layout (its
   * versions and bookkeeping are checked separately), runtime state ({@code /run}), the data
   * directories, the CNI configuration and state an upgrade cleans as a repave does, and the
   * applied config the caller persists.
   */
  public Map<String, String> sharedFiles() {
    FileTreeSnapshot snapshot = host.snapshot();
    Map<String, String> out = new TreeMap<>();
    for (FileTreeSnapshot.Entry e : snapshot.entries()) {
      String p = e.path();
      if (under(p, layout.root().toString())
          || under(p, "/run")
          || under(p, "/var/lib/containerd")
          || under(p, "/etc/cni")
          || under(p, "/var/lib/cni")
          || under(p, paths.appliedConfig().toString())
          || p.equals(paths.appliedConfig() + ".sha256")) {
        continue;
      }
      out.put(p, e.toString());
    }
    return out;
  }

  private static boolean under(String path, String root) {
    return path.equals(root) || path.startsWith(root + "/");
  }

  public Optional<String> current() {
    try {
      Path current = layout.current();
      if (host.ports().files().lstat(current).isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(host.ports().files().readLink(current));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether anything is at {@code path}, read from the simulated disk directly. */
  public boolean exists(Path path) {
    synchronized (host.monitor()) {
      try {
        return host.fs().lstat(path).isPresent();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * The installed version {@code unit}'s main process runs from: the version directory of the
   * layout its executable (every link resolved) lies in; empty when the unit has no main process
   * or runs a program from elsewhere.
   */
  public Optional<String> runningVersion(String unit) {
    Path root = layout.root();
    return host.systemd()
        .mainProcess(unit)
        .flatMap(p -> p.exe())
        .map(Path::of)
        .filter(exe -> exe.startsWith(root) && exe.getNameCount() > root.getNameCount() + 1)
        .map(exe -> exe.getName(root.getNameCount()).toString());
  }

  public boolean stackActive() {
    return STACK.stream().allMatch(u -> host.systemd().peek(u).isActive());
  }

  public static URI uri(String s) {
    return URI.create(s);
  }

  /** The default host facts, with the rest of the simulated host's facts as they are. */
  private record DefaultFacts(HostFacts host) implements HostFacts {
    @Override
    public HostInfo read() {
      return SimHostFacts.DEFAULT;
    }

    @Override
    public boolean privileged() throws IOException {
      return host.privileged();
    }

    @Override
    public List<String> swaps() throws IOException {
      return host.swaps();
    }

    @Override
    public long usableBytes(Path path) throws IOException {
      return host.usableBytes(path);
    }

    @Override
    public String bootId() throws IOException {
      return host.bootId();
    }
  }
}
