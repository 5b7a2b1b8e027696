package dev.noneops.acceptance.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import dev.noneops.acceptance.system.SystemdSandboxExtension;
import dev.noneops.acceptance.system.node.SharedFilesSnapshot;
import dev.noneops.acceptance.system.node.UpgradeUntilStep;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.internal.GoalStateResolver;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeStatus;
import dev.noneops.core.node.PreflightReport;
import dev.noneops.core.node.PreflightReport.Verdict;
import dev.noneops.core.node.PruneResult;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeResult;
import dev.noneops.core.node.internal.render.StackUnits;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.KubeletStandIn;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import dev.noneops.testkit.fixtures.system.SandboxHostPorts;
import dev.noneops.testkit.fixtures.system.SandboxNodes;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real {@link Node} with the real adapters ({@code adapter-host-fs}, {@code DbusSystemd})
 * against a real systemd 252 booted in a sandbox: units written, loaded and started over real
 * D-Bus, {@code current} flipped on a real file system, containerd from Debian's package really
 * running under the sandbox's systemd with the configuration the node wrote, and the kubelet and
 * CoreDNS stand-ins downloaded from a local HTTP artifact server.
 *
 * <p><b>How the node reaches the sandbox.</b> The node runs in this JVM with its production
 * layout ({@code /opt/unbounded/node}), host root ({@code /}) and unit directory
 * ({@code /etc/systemd/system}); the ports are rooted in the sandbox ({@link SandboxHostPorts}):
 * every file path is moved below {@code /proc/<pid>/root}, commands run through {@code nsenter},
 * the process table is narrowed to the sandbox's PID namespace. So the unit files systemd loads
 * are byte for byte the ones the node wrote, with the production paths inside them, and systemd's
 * {@code FragmentPath} equals the node's own unit path. Pointing the node's host root at
 * {@code /proc/<pid>/root} instead would write units whose {@code ExecStart} names a path that
 * does not exist inside the sandbox.
 *
 * <p>Not reached: kernel modules and sysctls ({@code Node.loadKernelModules}) are the host
 * kernel's and the sandbox's {@code /proc/sys} is read-only, so bootstrap here is provision,
 * configure and start. The sandbox shares the host's network namespace: LocalDNS's dummy interface
 * ({@value #DNS_INTERFACE}) is created there and removed by every reset (an {@code ifb} link on a
 * kernel without dummy links, see {@link DummyLinkStandIn}), and kubelet's healthz port 10248 must
 * be free.
 *
 * <p>Every test starts from an empty sandbox and resets the node at the end; one sandbox serves
 * the class and is stopped by its pid after it, whatever happened.
 */
class NodeOnRealSystemdSystemTest {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("node-system");

  static final String K8S = "1.31.4";
  static final String K8S_NEVER_HEALTHY = "1.31.5";
  static final DebianRuntimes.ContainerdPair CONTAINERD = DebianRuntimes.containerd();
  static final ArtifactSet.Runtime CONTAINERD_OLD = CONTAINERD.older();
  static final ArtifactSet.Runtime CONTAINERD_NEW = CONTAINERD.newer();
  static final ArtifactSet.Runtime RUNC = DebianRuntimes.runc();
  static final String DNS_INTERFACE = "nost0";
  static final String DNS_ADDRESS = "169.254.20.53";
  static final Duration KUBELET_READY = Duration.ofSeconds(60);
  static final Duration KUBELET_NEVER_READY = Duration.ofSeconds(8);
  static final Layout LAYOUT = Layout.defaultLayout();
  static final HostPaths PATHS = HostPaths.realHost();

  private static ArtifactServer server;
  private static DbusSystemd systemd;
  private static SandboxRoot root;
  private static HostPorts ports;
  private static AgentConfig base;
  private static AgentConfig upgraded;
  private static AgentConfig neverHealthy;

  @BeforeAll
  static void publishArtifactsAndConnect() throws Exception {
    requireFree(
        KubeletStandIn.DEFAULT_HEALTHZ_PORT,
        "kubelet's healthz port (the sandbox shares the host's network)");
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "noneops");
    ArtifactRepository repository = new ArtifactRepository(cache.resolve("system-test-artifacts"));
    ArtifactSet old =
        new ArtifactSet(K8S, CONTAINERD_OLD, RUNC, "1.5.1", "1.31.0", "1.11.3", "amd64", false);
    builder(repository, cache, CONTAINERD_OLD).publish(old);
    NodeArtifactBuilder newer = builder(repository, cache, CONTAINERD_NEW);
    newer.publish(old.withContainerd(CONTAINERD_NEW));
    newer.publish(old.withContainerd(CONTAINERD_NEW).withBrokenKubelet(K8S_NEVER_HEALTHY));
    server = ArtifactServer.serve(repository.root());

    SystemdSandbox sandbox = SANDBOX.sandbox();
    root = new SandboxRoot(sandbox.pid());
    systemd = DbusSystemd.connect(sandbox.busAddress());
    ports = SandboxHostPorts.create(root, systemd);
    base = config(json(K8S, CONTAINERD_OLD.version()));
    upgraded = config(json(K8S, CONTAINERD_NEW.version()));
    neverHealthy = config(json(K8S_NEVER_HEALTHY, CONTAINERD_NEW.version()));
  }

  /**
   * A builder taking Debian's packages into a cache of their own per containerd version
   * ({@code ~/.cache/noneops/debian/containerd-<version>}), so that each cache holds one
   * containerd package and the right one is extracted.
   */
  private static NodeArtifactBuilder builder(
      ArtifactRepository repository, Path cache, ArtifactSet.Runtime containerd)
      throws IOException {
    DebianPackages debian = new DebianPackages(
        cache.resolve("debian").resolve("containerd-" + containerd.debianVersion()));
    return new NodeArtifactBuilder(repository, debian, StandInScripts.ofThisJvm());
  }

  @AfterEach
  void resetWhatTheTestLeft() throws Exception {
    if (ports != null && teardown().present()) {
      reset();
    }
  }

  @AfterAll
  static void disconnect() {
    if (systemd != null) {
      systemd.close();
    }
    if (server != null) {
      server.close();
    }
  }

  // ------------------------------------------------------------------------------------- tests

  @Test
  void bootstrapRunsContainerdFromTheLayoutWithTheNodesConfiguration() throws Exception {
    assertThat(teardown().present()).as("an empty sandbox has no node").isFalse();

    Node node = bootstrap(base);

    String version = versionOf(base);
    assertThat(node.version()).contains(version);
    assertThat(ports.files().readLink(LAYOUT.current())).isEqualTo(version);
    assertThat(node.running()).isTrue();
    for (String unit :
        List.of(HostPaths.LOCALDNS_UNIT, HostPaths.CONTAINERD_UNIT, HostPaths.KUBELET_UNIT)) {
      UnitStatus status = systemd.status(unit);
      assertThat(status.load()).isEqualTo(LoadState.LOADED);
      assertThat(status.isActive()).as(unit + " active").isTrue();
      assertThat(status.fragmentPath())
          .as("systemd loaded the node's own unit file")
          .isEqualTo(PATHS.unit(unit).toString());
      assertThat(
              sandbox().exec("systemctl", "cat", "--no-pager", unit).orThrow().stdout())
          .as("what systemd loaded is what the node wrote")
          .contains(ports.files().readString(PATHS.unit(unit)));
    }
    assertContainerdRunsFrom(version);
    assertThat(ports.probes().dnsAnswers(DNS_ADDRESS, 53, "cluster.local", Duration.ofSeconds(2)))
        .as("the CoreDNS stand-in answers on LocalDNS's address")
        .isTrue();
    assertThat(ports
            .probes()
            .httpOk(java.net.URI.create("http://127.0.0.1:10248/healthz"), Duration.ofSeconds(2)))
        .isTrue();
    assertThat(applied().read()).isPresent();
  }

  @Test
  void preflightPassesOnTheSandboxBootstrapRunsItAndAfterwardsThePortsAreTheNodesOwn()
      throws Exception {
    Node node = node(base, Optional.empty(), KUBELET_READY);

    PreflightReport before = node.preflight(false);

    assertThat(before.failures()).as("%s", before.checks()).isEmpty();
    assertThat(before.check("root").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(before.check("systemd").orElseThrow().detail()).startsWith("systemd 252");
    assertThat(before.check("cgroup-v2").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(before.check("foreign-stack").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(before.check("localdns-port").orElseThrow().detail())
        .isEqualTo(DNS_ADDRESS + ":53/udp+tcp is free for localdns.service");
    assertThat(before.check("artifact-sources").orElseThrow().detail())
        .endsWith("URLs answer (127.0.0.1)");

    node.bootstrap(false);
    PreflightReport after = node.preflight(false);

    assertThat(after.failures()).as("%s", after.checks()).isEmpty();
    assertThat(after.check("kubelet-healthz-port").orElseThrow().detail())
        .isEqualTo("127.0.0.1:10248/tcp is held by this node's kubelet.service");
    assertThat(after.check("localdns-port").orElseThrow().detail())
        .isEqualTo(DNS_ADDRESS + ":53/udp+tcp is held by this node's localdns.service");
    assertThat(after.check("artifact-sources").orElseThrow().detail())
        .endsWith("is installed and verified; nothing to download");

    long asked = System.nanoTime();
    NodeStatus status = node.inspect().status();
    Duration took = Duration.ofNanos(System.nanoTime() - asked);

    assertThat(status.pods())
        .as("the node's own ctr asked its containerd, which runs no pod")
        .isEqualTo(new NodeStatus.Pods(0, 0, null));
    assertThat(status.units().values())
        .allSatisfy(u -> assertThat(u.activeSince()).isNotNull());
    assertThat(took).as("status with ctr asked twice").isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void reconfiguringTheLabelsRestartsKubeletOnly() throws Exception {
    bootstrap(base);
    long containerd = mainPid(HostPaths.CONTAINERD_UNIT);
    long localDns = mainPid(HostPaths.LOCALDNS_UNIT);
    long kubelet = mainPid(HostPaths.KUBELET_UNIT);
    AgentConfig relabelled = withLabels(base, Map.of("example.com/pool", "relabelled"));

    Node node = node(relabelled, Optional.empty(), KUBELET_READY);
    assertThat(node.goalState().rootFs().versionName())
        .as("labels do not change the version")
        .isEqualTo(versionOf(base));
    boolean wasRunning = node.running();
    ConfigureResult changes = node.configure();
    node.start(wasRunning, changes);

    assertThat(changes).isEqualTo(new ConfigureResult(false, true, false));
    assertThat(mainPid(HostPaths.CONTAINERD_UNIT))
        .as("containerd kept running")
        .isEqualTo(containerd);
    assertThat(mainPid(HostPaths.LOCALDNS_UNIT)).as("LocalDNS kept running").isEqualTo(localDns);
    long restarted = mainPid(HostPaths.KUBELET_UNIT);
    assertThat(restarted).as("kubelet restarted").isNotEqualTo(kubelet).isPositive();
    assertThat(commandLine(restarted)).contains("--node-labels=example.com/pool=relabelled");
    assertThat(ports
            .files()
            .readString(PATHS.kubeletDropInDir().resolve(StackUnits.DROP_IN_NODE_CONFIG)))
        .contains("example.com/pool=relabelled")
        .doesNotContain("example.com/pool=demo");
    assertThat(node.running()).isTrue();
  }

  @Test
  void aCrashedContainerdIsRestartedBySystemdAndKubeletKeepsRunning() throws Exception {
    bootstrap(base);
    long containerd = mainPid(HostPaths.CONTAINERD_UNIT);
    long kubelet = mainPid(HostPaths.KUBELET_UNIT);

    systemd.kill(HostPaths.CONTAINERD_UNIT, false, 9);

    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < deadline && !restartedFrom(HostPaths.CONTAINERD_UNIT, containerd)) {
      Thread.sleep(50);
    }
    assertThat(restartedFrom(HostPaths.CONTAINERD_UNIT, containerd))
        .as("containerd restarted by Restart=always")
        .isTrue();
    Thread.sleep(500);
    assertThat(mainPid(HostPaths.KUBELET_UNIT))
        .as("kubelet only wants containerd: systemd 252 would restart a kubelet that Requires= it")
        .isEqualTo(kubelet);
  }

  /** Whether {@code unit} is active with a main process other than {@code before}. */
  private static boolean restartedFrom(String unit, long before) {
    UnitStatus status = systemd.status(unit);
    return status.isActive() && status.mainPid() != 0 && status.mainPid() != before;
  }

  @Test
  void upgradeToANewContainerdFlipsCurrentAndKeepsThePreviousVersionUntilPruned() throws Exception {
    bootstrap(base);
    String previous = versionOf(base);
    String target = versionOf(upgraded);
    assertThat(target).isNotEqualTo(previous);

    Node node = node(upgraded, Optional.of(base), KUBELET_READY);
    UpgradeResult result = node.upgrade();
    applied().write(upgraded);
    node.commit();

    assertThat(result.previousVersion()).isEqualTo(previous);
    assertThat(result.targetVersion()).isEqualTo(target);
    assertThat(ports.files().readLink(LAYOUT.current())).isEqualTo(target);
    assertThat(ports.files().exists(LAYOUT.manifest(previous)))
        .as("the previous version stays until pruned")
        .isTrue();
    assertThat(ports.files().exists(LAYOUT.manifest(target))).isTrue();
    assertThat(ports.files().exists(LAYOUT.journal()))
        .as("committed: no journal")
        .isFalse();
    assertThat(ports.files().exists(LAYOUT.confsnap()))
        .as("committed: no saved configuration")
        .isFalse();
    assertThat(node.running()).isTrue();
    assertContainerdRunsFrom(target);

    PruneResult pruned = node.pruneVersions();
    assertThat(pruned.removed()).containsExactly(previous);
    assertThat(ports.files().exists(LAYOUT.versionDir(previous))).as("pruned").isFalse();
    assertThat(ports.files().exists(LAYOUT.manifest(target))).isTrue();
    assertThat(node.running()).isTrue();
  }

  @Test
  void anUpgradeWhoseKubeletNeverBecomesHealthyRollsBackWithSharedFilesByteIdentical()
      throws Exception {
    bootstrap(base);
    String previous = versionOf(base);
    Map<String, String> before = SharedFilesSnapshot.take(ports.files());

    Node node = node(neverHealthy, Optional.of(base), KUBELET_NEVER_READY);
    UpgradeFailedException failed =
        catchThrowableOfType(UpgradeFailedException.class, node::upgrade);

    assertThat(failed.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(failed.targetVersion()).isEqualTo(versionOf(neverHealthy));
    assertThat(ports.files().readLink(LAYOUT.current())).isEqualTo(previous);
    assertThat(SharedFilesSnapshot.take(ports.files()))
        .as("every shared file as before the upgrade")
        .isEqualTo(before);
    assertThat(ports.files().exists(LAYOUT.journal())).isFalse();
    assertThat(ports.files().exists(LAYOUT.confsnap())).isFalse();
    assertThat(node(base, Optional.empty(), KUBELET_READY).running()).isTrue();
    assertContainerdRunsFrom(previous);
  }

  /**
   * The kubelet unit on disk as an earlier agent rendered it (one more flag), loaded and running;
   * an upgrade whose target changes kubelet's command line (another cluster domain) fails. The
   * rollback's own rendering of the applied configuration is loaded first, then the saved bytes
   * are restored: systemd must run those, so it is reloaded before the previous stack starts.
   */
  @Test
  void aRollbackLeavesSystemdRunningTheRestoredUnitsCommandLine() throws Exception {
    bootstrap(base);
    Path unit = PATHS.unit(HostPaths.KUBELET_UNIT);
    ports
        .files()
        .writeDurably(
            unit,
            ports.files().readString(unit).replace("--event-qps=0", "--event-qps=0 --v=2"),
            0644);
    systemd.daemonReload();
    systemd.restart(HostPaths.KUBELET_UNIT, KUBELET_READY);
    String before = execStartArgv(HostPaths.KUBELET_UNIT);
    assertThat(before).contains("--v=2").contains("--cluster-domain=cluster.local");
    String bind = "\"BindAddress\": \"" + DNS_ADDRESS + "\"";
    AgentConfig otherDomain = config(json(K8S_NEVER_HEALTHY, CONTAINERD_NEW.version())
        .replace(bind, bind + ", \"ClusterDomain\": \"other.local\""));

    Throwable thrown =
        catchThrowable(node(otherDomain, Optional.of(base), KUBELET_NEVER_READY)::upgrade);

    assertThat(thrown).isInstanceOf(UpgradeFailedException.class);
    UpgradeFailedException failed = (UpgradeFailedException) thrown;
    assertThat(failed.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(execStartArgv(HostPaths.KUBELET_UNIT))
        .as("systemctl show -p ExecStart after the rollback")
        .isEqualTo(before);
    assertThat(sandbox()
            .exec("systemctl", "show", "-p", "NeedDaemonReload", "--value", HostPaths.KUBELET_UNIT)
            .orThrow()
            .stdout()
            .strip())
        .as("what systemd loaded is the file on disk")
        .isEqualTo("no");
    assertThat(commandLine(mainPid(HostPaths.KUBELET_UNIT)))
        .contains("--v=2")
        .contains("--cluster-domain=cluster.local");
  }

  @ParameterizedTest(name = "killed after {0}")
  @ValueSource(strings = {"upgrade-write-journal", "upgrade-switch-current"})
  void anAgentKilledInTheMiddleOfAnUpgradeIsRecoveredToThePreviousVersion(String task)
      throws Exception {
    bootstrap(base);
    String previous = versionOf(base);
    String target = versionOf(upgraded);
    Map<String, String> before = SharedFilesSnapshot.take(ports.files());

    int exit = upgradeInAChildJvmKilledAfter(task);

    assertThat(exit).as("the agent died of SIGKILL").isEqualTo(128 + 9);
    assertThat(ports.files().exists(LAYOUT.journal()))
        .as("the upgrade was in flight")
        .isTrue();
    assertThat(ports.files().readLink(LAYOUT.current()))
        .isEqualTo(task.equals("upgrade-switch-current") ? target : previous);

    Node node = node(base, Optional.of(base), KUBELET_READY);
    RecoveryResult recovered = node.recoverUpgrade(base);

    assertThat(recovered.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(recovered.startError()).isEmpty();
    assertThat(ports.files().readLink(LAYOUT.current())).isEqualTo(previous);
    assertThat(new VersionVerifier(ports.files(), LAYOUT).manifest(previous))
        .as("the active version is complete and verified")
        .isPresent();
    assertThat(SharedFilesSnapshot.take(ports.files()))
        .as("every shared file as before the upgrade")
        .isEqualTo(before);
    assertThat(ports.files().exists(LAYOUT.journal())).isFalse();
    assertThat(ports.files().exists(LAYOUT.confsnap())).isFalse();
    assertThat(tempFilesBelow(List.of(
            LAYOUT.root(),
            PATHS.systemdDir(),
            PATHS.containerdConfig().getParent(),
            PATHS.cniBinDir())))
        .as("no temp file left")
        .isEmpty();
    assertThat(node.running()).isTrue();
    assertContainerdRunsFrom(previous);
    assertThat(node.recoverUpgrade(base).outcome())
        .as("recovery again is a no-op")
        .isEqualTo(RecoveryResult.Outcome.NOTHING_TO_DO);
  }

  /**
   * The agent is killed once an upgrade whose target renames LocalDNS's interface has set that
   * interface up: recovery, which knows only the applied configuration, removes the target's
   * interface from what the journal recorded, so one link carries LocalDNS's address again.
   */
  @Test
  void recoveryAfterAnAgentKilledMidUpgradeRemovesTheTargetsRenamedInterface() throws Exception {
    String renamed = "nost1";
    bootstrap(base);
    try {
      String target = json(K8S, CONTAINERD_NEW.version())
          .replace(
              "\"InterfaceName\": \"" + DNS_INTERFACE + "\"",
              "\"InterfaceName\": \"" + renamed + "\"");

      assertThat(upgradeInAChildJvmKilledAfter("upgrade-set-up-host-networking", target))
          .isEqualTo(128 + 9);
      assertThat(linkExists(renamed)).as("the target set its interface up").isTrue();

      RecoveryResult recovered = node(base, Optional.of(base), KUBELET_READY).recoverUpgrade(base);

      assertThat(recovered.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
      assertThat(linkExists(renamed)).as("the target's interface is removed").isFalse();
      assertThat(ports
              .commands()
              .run(
                  Command.of(Duration.ofSeconds(10), "ip", "-o", "addr", "show", "to", DNS_ADDRESS))
              .stdout()
              .lines()
              .map(l -> l.split("\\s+")[1]))
          .as("the links carrying LocalDNS's address")
          .containsExactly(DNS_INTERFACE);
    } finally {
      if (linkExists(renamed)) {
        ip("ip", "link", "delete", "dev", renamed);
      }
    }
  }

  static boolean linkExists(String name) throws IOException {
    return ports
        .commands()
        .run(Command.of(Duration.ofSeconds(10), "ip", "link", "show", "dev", name))
        .succeeded();
  }

  @Test
  void teardownLeavesNothingTheNodeOwned() throws Exception {
    bootstrap(base);
    String version = versionOf(base);
    long containerd = mainPid(HostPaths.CONTAINERD_UNIT);

    TeardownResult report = reset();

    assertThat(report.complete()).as(report.toString()).isTrue();
    assertThat(teardown().present()).isFalse();
    for (String unit :
        List.of(HostPaths.LOCALDNS_UNIT, HostPaths.CONTAINERD_UNIT, HostPaths.KUBELET_UNIT)) {
      assertThat(ports.files().exists(PATHS.unit(unit))).isFalse();
      assertThat(systemd.status(unit).isActive()).as(unit + " stopped").isFalse();
    }
    assertThat(ports.files().exists(PATHS.kubeletDropInDir())).isFalse();
    assertThat(ports.files().exists(LAYOUT.root())).isFalse();
    assertThat(ports.files().exists(PATHS.containerdConfig())).isFalse();
    assertThat(ports.files().exists(PATHS.appliedConfig())).isFalse();
    assertThat(ports.files().exists(PATHS.containerdStateDir())).isFalse();
    assertThat(sandbox().exec("test", "-d", "/proc/" + containerd).succeeded())
        .as("containerd's process is gone")
        .isFalse();
    assertThat(ports.processes().list())
        .noneMatch(p -> p.exe().orElse("").startsWith(LAYOUT.versionDir(version).toString()));
    assertThat(ports
            .commands()
            .run(Command.of(Duration.ofSeconds(10), "ip", "link", "show", "dev", DNS_INTERFACE))
            .succeeded())
        .as("LocalDNS's interface removed")
        .isFalse();
  }

  // --------------------------------------------------------------------------------- the node

  static Node node(AgentConfig config, Optional<AgentConfig> previous, Duration kubeletReady) {
    return SandboxNodes.node(ports, Optional.of(config), previous, kubeletReady, NodeEvents.NONE);
  }

  /** Bootstrap as the CLI does it, without the host kernel's modules and sysctls. */
  static Node bootstrap(AgentConfig config) throws IOException {
    Node node = node(config, Optional.empty(), KUBELET_READY);
    node.provision();
    ConfigureResult changes = node.configure();
    node.start(node.running(), changes);
    applied().write(config);
    return node;
  }

  /** Reset in the reset order, with the caller's host-global part (LocalDNS's interface). */
  static TeardownResult reset() throws Exception {
    Teardown teardown = teardown();
    TeardownResult report = teardown.stop().plus(teardown.removeConfig());
    String link = ports
        .commands()
        .run(Command.of(Duration.ofSeconds(10), "ip", "-d", "link", "show", "dev", DNS_INTERFACE))
        .stdout();
    if (link.contains("dummy") || link.contains(DummyLinkStandIn.STAND_IN_TYPE)) {
      ip("ip", "link", "delete", "dev", DNS_INTERFACE);
    }
    applied().remove();
    return report.plus(teardown.destroy());
  }

  static Teardown teardown() {
    return SandboxNodes.teardown(ports);
  }

  static AppliedConfigStore applied() {
    return new AppliedConfigStore(ports.files(), PATHS);
  }

  static String versionOf(AgentConfig config) throws IOException {
    return GoalStateResolver.resolve(config, ports.facts().read(), LAYOUT)
        .rootFs()
        .versionName();
  }

  // ------------------------------------------------------------------------------ the crash

  /** Runs the upgrade in a child JVM, SIGKILLs it right after {@code task} completed; its exit code. */
  static int upgradeInAChildJvmKilledAfter(String task) throws Exception {
    return upgradeInAChildJvmKilledAfter(task, json(K8S, CONTAINERD_NEW.version()));
  }

  /** Runs the upgrade to {@code targetJson} in a child JVM, SIGKILLs it right after {@code task} completed; its exit code. */
  static int upgradeInAChildJvmKilledAfter(String task, String targetJson) throws Exception {
    Path dir = Files.createTempDirectory("noneops-kill-");
    Path target = Files.writeString(dir.resolve("target.json"), targetJson);
    Path previous =
        Files.writeString(dir.resolve("previous.json"), json(K8S, CONTAINERD_OLD.version()));
    Path stderr = dir.resolve("agent.err");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "--add-opens",
        "java.base/java.io=ALL-UNNAMED",
        "--add-opens",
        "java.base/sun.nio.ch=ALL-UNNAMED",
        "-cp",
        System.getProperty("java.class.path"),
        UpgradeUntilStep.class.getName(),
        Long.toString(root.pid()),
        target.toString(),
        previous.toString(),
        task,
        Long.toString(KUBELET_READY.toSeconds())));
    Process agent = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(agent.getInputStream(), UTF_8));
      CompletableFuture<String> reached = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(UpgradeUntilStep.REACHED)) {
              return line;
            }
          }
          return null;
        } catch (IOException e) {
          return null;
        }
      });
      String line = reached.get(120, TimeUnit.SECONDS);
      if (line == null || !line.equals(UpgradeUntilStep.REACHED + task)) {
        agent.waitFor(10, TimeUnit.SECONDS);
        fail("the agent did not reach " + task + " (exit "
            + (agent.isAlive() ? "none" : agent.exitValue()) + "): " + Files.readString(stderr));
      }
      agent.destroyForcibly();
      if (!agent.waitFor(30, TimeUnit.SECONDS)) {
        fail("the agent (pid " + agent.pid() + ") survived SIGKILL");
      }
      return agent.exitValue();
    } finally {
      if (agent.isAlive()) {
        agent.destroyForcibly();
      }
      Files.deleteIfExists(target);
      Files.deleteIfExists(previous);
      Files.deleteIfExists(stderr);
      Files.deleteIfExists(dir);
    }
  }

  // --------------------------------------------------------------------- what really runs

  /**
   * containerd answers on its socket ({@code ctr version} inside the sandbox), its main process
   * executes the binary of {@code version}'s directory, and the CRI configuration that process
   * logged at start is the node's (sandbox image, CNI bin dir).
   */
  static void assertContainerdRunsFrom(String version) throws IOException {
    ExecResult ctr = sandbox()
        .exec(
            List.of(
                LAYOUT.currentBin().resolve("ctr").toString(),
                "--address",
                "/run/containerd/containerd.sock",
                "version"),
            Duration.ofSeconds(30));
    assertThat(ctr.succeeded()).as(ctr.describe()).isTrue();
    assertThat(ctr.stdout())
        .contains("Server:")
        .containsPattern("(?s)Server:.*Version:\\s+1\\.6\\.20");

    long pid = mainPid(HostPaths.CONTAINERD_UNIT);
    assertThat(sandbox()
            .exec("readlink", "/proc/" + pid + "/exe")
            .orThrow()
            .stdout()
            .strip())
        .as("containerd's main process executes the binary of version " + version)
        .isEqualTo(LAYOUT.binDir(version).resolve("containerd").toString());

    ContainerdSpec spec =
        node(base, Optional.empty(), KUBELET_READY).goalState().nodeStart().containerd();
    String logged = sandbox()
        .exec(
            List.of("journalctl", "--no-pager", "-o", "cat", "_PID=" + pid), Duration.ofSeconds(30))
        .stdout();
    String cri = logged
        .lines()
        .filter(l -> l.contains("Start cri plugin with config"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(
            "containerd (pid " + pid + ") logged no CRI configuration:\n" + logged));
    assertThat(cri)
        .contains("SandboxImage:" + spec.sandboxImage())
        .contains("NetworkPluginBinDir:" + spec.cniBinDir());
  }

  /** The {@code argv[]} of the unit's loaded {@code ExecStart} ({@code systemctl show -p ExecStart}), without its run-time fields. */
  static String execStartArgv(String unit) throws IOException {
    String shown = sandbox()
        .exec("systemctl", "show", "-p", "ExecStart", "--value", unit)
        .orThrow()
        .stdout();
    java.util.regex.Matcher argv =
        java.util.regex.Pattern.compile("argv\\[\\]=([^;]*);").matcher(shown);
    if (!argv.find()) {
      throw new AssertionError("systemctl show -p ExecStart " + unit + " has no argv[]: " + shown);
    }
    return argv.group(1).strip();
  }

  static long mainPid(String unit) {
    long pid = systemd.status(unit).mainPid();
    assertThat(pid).as(unit + " main pid").isPositive();
    return pid;
  }

  static String commandLine(long pid) {
    return sandbox()
        .exec("sh", "-c", "tr '\\0' ' ' < /proc/" + pid + "/cmdline")
        .orThrow()
        .stdout();
  }

  static List<Path> tempFilesBelow(List<Path> dirs) throws IOException {
    List<Path> found = new ArrayList<>();
    HostFiles files = ports.files();
    for (Path dir : dirs) {
      if (files.lstat(dir).map(m -> m.isDirectory()).orElse(false)) {
        for (String name : files.list(dir)) {
          if (name.startsWith(HostFiles.TEMP_PREFIX)) {
            found.add(dir.resolve(name));
          }
        }
      }
    }
    return found;
  }

  static SystemdSandbox sandbox() {
    return SANDBOX.sandbox();
  }

  // --------------------------------------------------------------------------- configuration

  /** The example node, downloading from the artifact server, LocalDNS on its own interface. */
  static String json(String kubernetes, String containerd) {
    String json = ConfigJson.of(kubernetes)
        .withContainerd(containerd)
        .withRunc(RUNC.version())
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

  static AgentConfig config(String json) throws IOException {
    return AgentConfigParser.parseAndValidate(
        json.getBytes(UTF_8), ports.facts().read().arch());
  }

  static AgentConfig withLabels(AgentConfig c, Map<String, String> labels) {
    AgentConfig.Kubelet k = c.kubelet();
    return new AgentConfig(
        c.machineName(),
        c.cluster(),
        new AgentConfig.Kubelet(
            k.apiServer(), k.auth(), new TreeMap<>(labels), k.registerWithTaints()),
        c.cri(),
        c.cni(),
        c.ociImage(),
        c.attest(),
        c.downloads(),
        c.localDns());
  }

  static void ip(String... argv) throws IOException {
    CommandResult r = ports.commands().run(Command.of(Duration.ofSeconds(10), argv));
    if (!r.succeeded()) {
      throw new IllegalStateException(
          String.join(" ", argv) + " exited " + r.exitCode() + ": " + r.stderr().strip());
    }
  }

  static void requireFree(int port, String what) throws IOException {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.getLocalPort();
    } catch (BindException e) {
      throw new IllegalStateException(
          "127.0.0.1:" + port + " (" + what
              + ") is in use by another process; these system tests need it",
          e);
    }
  }

  private static Throwable catchThrowable(Runnable body) {
    try {
      body.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }
}
