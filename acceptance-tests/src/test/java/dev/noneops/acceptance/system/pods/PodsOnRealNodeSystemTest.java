package dev.noneops.acceptance.system.pods;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.acceptance.system.SystemdSandboxExtension;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.ResetResult;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.BusyboxImageArchive;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.pods.RealPod;
import dev.noneops.testkit.fixtures.pods.RealPods;
import dev.noneops.testkit.fixtures.sandbox.HostNetworkSnapshot;
import dev.noneops.testkit.fixtures.sandbox.SandboxNetwork;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import dev.noneops.testkit.fixtures.system.SandboxHostPorts;
import dev.noneops.testkit.fixtures.system.SandboxNodes;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real pods on a node on the sandboxed real systemd: containers the node's own containerd (Debian's
 * 1.6) runs under runc shims, in cgroups below {@code /kubepods}, on snapshot and rootfs mounts,
 * in network namespaces that Debian's CNI plugins put on a bridge with host-local addresses, with
 * volumes bind-mounted from {@code /var/lib/kubelet/pods}. The image comes from no registry: a
 * busybox archive ({@link BusyboxImageArchive}) staged in the node's image archive directory,
 * also tagged as the configured sandbox image. {@code /var/lib/containerd} is a tmpfs of its own,
 * as a node with a separate disk has it (containerd's overlay snapshotter cannot put its upper
 * directories on the sandbox's overlay root).
 *
 * <p>The sandbox has its own network namespace: the bridge, the veths and the pods' addresses
 * exist only there, and the host's network is checked unchanged after the class.
 */
class PodsOnRealNodeSystemTest {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX =
      new SystemdSandboxExtension("pods", SandboxNetwork.OWN);

  static final String K8S = "1.31.4";
  static final String K8S_NEVER_HEALTHY = "1.31.5";
  static final String CNI = "1.5.1";
  static final DebianRuntimes.ContainerdPair CONTAINERD = DebianRuntimes.containerd();
  static final ArtifactSet.Runtime RUNC = DebianRuntimes.runc();
  static final String DNS_INTERFACE = "nost0";
  static final String DNS_ADDRESS = "169.254.20.53";
  static final Duration KUBELET_READY = Duration.ofSeconds(60);
  static final Duration KUBELET_NEVER_READY = Duration.ofSeconds(8);
  static final Layout LAYOUT = Layout.defaultLayout();
  static final HostPaths PATHS = HostPaths.realHost();

  private static HostNetworkSnapshot hostNetworkBefore;
  private static ArtifactServer server;
  private static DbusSystemd systemd;
  private static HostPorts ports;
  private static Path imageArchive;
  private static Path foreignContainerd;
  private static Path foreignRunc;
  private static Path foreignCniPlugins;
  private static Path foreignBusybox;
  private static AgentConfig base;
  private static AgentConfig upgraded;
  private static AgentConfig neverReady;

  @BeforeAll
  static void publishArtifactsAndConnect() throws Exception {
    hostNetworkBefore = HostNetworkSnapshot.take();
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "noneops");
    ArtifactRepository repository = new ArtifactRepository(cache.resolve("pods-system-artifacts"));
    ArtifactSet old =
        new ArtifactSet(K8S, CONTAINERD.older(), RUNC, CNI, "1.31.0", "1.11.3", "amd64", false);
    DebianPackages debian = DebianPackages.inUserCache();
    builder(repository, cache, CONTAINERD.older()).publish(old);
    NodeArtifactBuilder newer = builder(repository, cache, CONTAINERD.newer());
    newer.publish(old.withContainerd(CONTAINERD.newer()));
    newer.publish(old.withContainerd(CONTAINERD.newer()).withBrokenKubelet(K8S_NEVER_HEALTHY));
    new NodeArtifactBuilder(repository, debian, StandInScripts.ofThisJvm())
        .publishDebianCniPlugins(CNI, "amd64");
    server = ArtifactServer.serve(repository.root());
    foreignContainerd = new DebianPackages(
            cache.resolve("debian").resolve("containerd-" + CONTAINERD.older().debianVersion()))
        .extracted("containerd", CONTAINERD.older().debianVersion())
        .resolve("usr/bin");
    foreignRunc = debian.extracted("runc", RUNC.debianVersion()).resolve("usr/sbin/runc");
    foreignCniPlugins = debian.extracted("containernetworking-plugins", "").resolve("usr/lib/cni");
    foreignBusybox = BusyboxImageArchive.busyboxFrom(debian);
    imageArchive = cache.resolve("images").resolve("busybox.tar");
    BusyboxImageArchive.write(
        BusyboxImageArchive.busyboxFrom(debian),
        imageArchive,
        List.of(RealPods.IMAGE, NodeConstants.SANDBOX_IMAGE),
        "amd64");

    SystemdSandbox sandbox = SANDBOX.sandbox();
    systemd = DbusSystemd.connect(sandbox.busAddress());
    ports = SandboxHostPorts.create(new SandboxRoot(sandbox.pid()), systemd);
    base = config(json(K8S, CONTAINERD.older().version()));
    upgraded = config(json(K8S, CONTAINERD.newer().version()));
    neverReady = config(json(K8S_NEVER_HEALTHY, CONTAINERD.newer().version()));
  }

  private static NodeArtifactBuilder builder(
      ArtifactRepository repository, Path cache, ArtifactSet.Runtime containerd)
      throws IOException {
    DebianPackages debian = new DebianPackages(
        cache.resolve("debian").resolve("containerd-" + containerd.debianVersion()));
    return new NodeArtifactBuilder(repository, debian, StandInScripts.ofThisJvm());
  }

  /** A disk of containerd's own, and the image archive staged where the node imports it. */
  @BeforeEach
  void giveContainerdItsDiskAndStageTheImage() throws IOException {
    sandbox().exec("mkdir", "-p", "/var/lib/containerd").orThrow();
    sandbox()
        .exec("mount", "-t", "tmpfs", "-o", "mode=0711", "containerd-disk", "/var/lib/containerd")
        .orThrow();
    Path dir = sandbox().path(Overrides.DEFAULT_IMAGE_ARCHIVE_DIR);
    Files.createDirectories(dir);
    Files.copy(imageArchive, dir.resolve("busybox.tar"));
  }

  @AfterEach
  void resetWhatTheTestLeft() throws Exception {
    if (ports != null && teardown().present()) {
      reset();
    }
    sandbox()
        .exec(
            "sh",
            "-c",
            "while mountpoint -q /var/lib/containerd; do umount -l "
                + "/var/lib/containerd; done; rm -rf " + Overrides.DEFAULT_IMAGE_ARCHIVE_DIR);
  }

  /**
   * What the pods made of networks is the sandbox's alone: the host has no link, address or route
   * of the pods' bridge, veths or subnet. (The whole host snapshot is compared in {@code
   * SandboxNetworkSystemTest}; here other sandboxes sharing the host's network, such as those of
   * concurrent builds, may add and remove links of their own meanwhile.)
   */
  @AfterAll
  static void disconnectAndCheckTheHostsNetwork() {
    if (systemd != null) {
      systemd.close();
    }
    if (server != null) {
      server.close();
    }
    if (ports != null) {
      SANDBOX.sandbox().close();
    }
    HostNetworkSnapshot after = HostNetworkSnapshot.take();
    assertThat(after.views().keySet()).isEqualTo(hostNetworkBefore.views().keySet());
    for (String view : after.views().keySet()) {
      assertThat(after.views().get(view))
          .as("the host's %s after the pods' sandbox", view)
          .doesNotContain(RealPods.BRIDGE)
          .doesNotContain("\"veth")
          .doesNotContain(RealPods.SUBNET.substring(0, RealPods.SUBNET.lastIndexOf('.') + 1));
    }
  }

  // ------------------------------------------------------------------------------------ cases

  /**
   * The upgrade ends the pods (their shims and every process in their cgroups) and cleans CNI's
   * configuration and state; the empty pod cgroups stay, as the upgrade keeps the pod hierarchy
   * for the stack's next start (kubelet removes the cgroups of pods it no longer runs). The CNI
   * configuration is written again after the upgrade, as the CNI agent would on its restart.
   */
  @Test
  void anUpgradeEndsThreeRunningPodsLeavingNothingOfThemAndANewPodRunsOnTheNewContainerd()
      throws Exception {
    bootstrap(base);
    RealPods pods = pods();
    pods.writeNetworkConfiguration();
    List<RealPod> running = List.of(
        pods.start("web-1", "0a1b2c3d-0001", "kubernetes.io~empty-dir/cache"),
        pods.start("web-2", "0a1b2c3d-0002", "kubernetes.io~empty-dir/cache"),
        pods.start("web-3", "0a1b2c3d-0003", "kubernetes.io~empty-dir/cache"));
    assertThat(pods.reaches("web-1", running.get(1).address()))
        .as("pod to pod over the bridge")
        .isTrue();
    assertThat(pods.reaches("web-3", RealPods.GATEWAY)).as("pod to its gateway").isTrue();
    assertThat(mountinfo()).contains("/io.containerd.runtime.v2.task/k8s.io/web-1/rootfs");
    assertThat(pods.exec("ip", "-o", "link", "show"))
        .as("the node's links are in the sandbox's network")
        .contains(RealPods.BRIDGE)
        .contains(running.get(0).hostVeth())
        .contains(DNS_INTERFACE);

    Node node = node(upgraded, Optional.of(base));
    node.upgrade();
    applied().write(upgraded);
    node.commit();

    for (RealPod pod : running) {
      assertNothingLeftOf(pod);
    }
    assertThat(node.running()).isTrue();
    assertThat(
            sandbox().exec("readlink", "/proc/" + mainPid() + "/exe").orThrow().stdout())
        .as("the new containerd runs")
        .contains(LAYOUT.binDir(versionOf(upgraded)).toString());

    pods.writeNetworkConfiguration();
    RealPod after = pods.start("web-4", "0a1b2c3d-0004", "kubernetes.io~empty-dir/cache");
    assertThat(pods.reaches("web-4", RealPods.GATEWAY))
        .as("a new pod reaches the network after the upgrade")
        .isTrue();
    assertThat(after.shimPid()).isNotIn(running.stream().map(RealPod::shimPid).toList());
  }

  /**
   * An upgrade whose kubelet never becomes ready rolls back: the pods are ended on the way out as
   * on the way in (nothing of them is left, the CNI state included), the previous containerd runs
   * again, and a new pod starts on it and reaches the network.
   */
  @Test
  void
      aRolledBackUpgradeEndsThreeRunningPodsLeavingNothingOfThemAndANewPodRunsOnThePreviousContainerd()
          throws Exception {
    bootstrap(base);
    String previous = versionOf(base);
    RealPods pods = pods();
    pods.writeNetworkConfiguration();
    List<RealPod> running = List.of(
        pods.start("api-1", "0a1b2c3d-0011", "kubernetes.io~empty-dir/cache"),
        pods.start("api-2", "0a1b2c3d-0012", "kubernetes.io~empty-dir/cache"),
        pods.start("api-3", "0a1b2c3d-0013", "kubernetes.io~empty-dir/cache"));
    assertThat(pods.reaches("api-1", running.get(2).address())).isTrue();

    Node node = SandboxNodes.node(
        ports, Optional.of(neverReady), Optional.of(base), KUBELET_NEVER_READY, NodeEvents.NONE);
    UpgradeFailedException failed =
        catchThrowableOfType(UpgradeFailedException.class, node::upgrade);

    assertThat(failed)
        .as("the upgrade to a kubelet that never gets ready fails")
        .isNotNull();
    assertThat(failed.outcome()).as("%s", failed).isEqualTo(RollbackOutcome.ROLLED_BACK);
    assertThat(ports.files().readLink(LAYOUT.current())).isEqualTo(previous);
    for (RealPod pod : running) {
      assertNothingLeftOf(pod);
    }
    assertThat(node(base, Optional.empty()).running()).isTrue();
    assertThat(
            sandbox().exec("readlink", "/proc/" + mainPid() + "/exe").orThrow().stdout())
        .as("the previous containerd runs again")
        .contains(LAYOUT.binDir(previous).toString());

    pods.writeNetworkConfiguration();
    RealPod after = pods.start("api-4", "0a1b2c3d-0014", "kubernetes.io~empty-dir/cache");
    assertThat(pods.reaches("api-4", RealPods.GATEWAY))
        .as("a new pod reaches the network after the rollback")
        .isTrue();
    assertThat(after.shimPid()).isNotIn(running.stream().map(RealPod::shimPid).toList());
  }

  /**
   * A container runtime beside the node ({@link ForeignRuntime}: Debian's containerd from {@code
   * /opt/foreign-runtime} on its own socket, root and state, in a unit and slice of its own, with a
   * container in its own namespace and cgroup on a CNI network of its own), started before the
   * node came: the node's upgrade and its teardown end the node's pods and remove the node's CNI
   * entries, and leave the foreign runtime as it was — the same processes, mounts, cgroup,
   * network namespace and veth, its CNI configuration and address reservation byte-identical —
   * and its container still answers.
   */
  @Test
  void aForeignRuntimeBesideTheNodeSurvivesTheNodesUpgradeAndTeardownUntouched() throws Exception {
    ForeignRuntime foreign = new ForeignRuntime(sandbox());
    try {
      foreign.start(
          foreignContainerd, foreignRunc, foreignCniPlugins, foreignBusybox, imageArchive);
      assertThat(foreign.unanswered()).as("the foreign container answers").isEmpty();
      ForeignRuntime.State before = foreign.state();
      assertThat(before.mounts())
          .as("the foreign runtime's disk and its container's rootfs")
          .contains(ForeignRuntime.ROOT)
          .anyMatch(m -> m.endsWith("/" + ForeignRuntime.CONTAINER + "/rootfs"));
      assertThat(before.cniFiles())
          .as("its CNI configuration and address reservation")
          .contains(ForeignRuntime.CONFLIST)
          .contains("./" + foreign.address());
      assertThat(before.cgroup()).contains(ForeignRuntime.CGROUP);
      assertThat(before.sharedRunState())
          .as("its runc state and shim socket below /run/containerd")
          .contains("/run/containerd/runc/foreign/foreign-web/state.json f")
          .contains(ForeignRuntime.shimSocketName() + " s");

      bootstrap(base);
      RealPods pods = pods();
      pods.writeNetworkConfiguration();
      RealPod pod = pods.start("web-1", "0a1b2c3d-0021", "kubernetes.io~empty-dir/cache");
      assertThat(pods.reaches("web-1", RealPods.GATEWAY)).isTrue();

      Node node = node(upgraded, Optional.of(base));
      node.upgrade();
      applied().write(upgraded);
      node.commit();

      assertNothingLeftOf(pod);
      assertThat(foreign.state()).as("the foreign runtime after the upgrade").isEqualTo(before);
      assertThat(foreign.unanswered())
          .as("the foreign container after the upgrade")
          .isEmpty();

      pods.writeNetworkConfiguration();
      RealPod second = pods.start("web-2", "0a1b2c3d-0022", "kubernetes.io~empty-dir/cache");
      TeardownResult report = reset();

      assertThat(report.blocking()).as("%s", report).isEmpty();
      assertThat(report.kept(KeepReason.FOREIGN_SHIM))
          .as("the foreign runtime's shim is recognised and kept: %s", report)
          .isNotEmpty();
      assertNothingLeftOf(second);
      assertThat(foreign.state()).as("the foreign runtime after the teardown").isEqualTo(before);
      assertThat(foreign.unanswered())
          .as("the foreign container after the teardown")
          .isEmpty();
      assertThat(Files.exists(sandbox().path(RealPods.CONFLIST)))
          .as("the node's CNI configuration")
          .isFalse();
      assertThat(Files.exists(sandbox().path("/var/lib/cni/networks/" + RealPods.NETWORK)))
          .as("the node's pods' address reservations")
          .isFalse();
    } finally {
      foreign.remove();
    }
  }

  /**
   * Another client of the node's containerd (Docker installed after the node, on its default
   * socket, keeps its containers in the {@code moby} namespace): a container it started keeps its
   * snapshot and its metadata through the reset, which keeps containerd's data directory whole,
   * names the namespace and stays incomplete; the container's process, and its bundle with the
   * root filesystem mounted below {@code /run/containerd}, stay too; and so does the node's version
   * whose {@code containerd-shim-runc-v2} the container's shim runs (containerd found it beside
   * itself), with its runc. A containerd started on that directory afterwards lists the
   * namespace's containers and snapshots as before and takes the running task over; once the
   * operator removed them, the reset run again completes.
   */
  @Test
  void aContainerOfAnotherNamespaceOnTheNodesContainerdKeepsItsSnapshotAndMetadataThroughTheReset()
      throws Exception {
    bootstrap(base);
    String archive = Overrides.DEFAULT_IMAGE_ARCHIVE_DIR + "/busybox.tar";
    String nodeCtr = LAYOUT.currentBin().resolve("ctr").toString();
    Path afterNode = sandbox().path("/opt/after-node/bin");
    Files.createDirectories(afterNode);
    for (String name : List.of("containerd", "containerd-shim-runc-v2", "ctr")) {
      Files.copy(foreignContainerd.resolve(name), afterNode.resolve(name));
      afterNode.resolve(name).toFile().setExecutable(true, false);
    }
    Files.copy(foreignRunc, afterNode.resolve("runc"));
    afterNode.resolve("runc").toFile().setExecutable(true, false);
    sandbox().exec(nodeCtr, "-n", "moby", "images", "import", archive).orThrow();
    sandbox()
        .exec(
            nodeCtr,
            "-n",
            "moby",
            "run",
            "-d",
            "--cpu-shares",
            "0",
            "--runc-binary",
            "/opt/after-node/bin/runc",
            RealPods.IMAGE,
            "docker-web",
            "/bin/sleep",
            "2147483647")
        .orThrow();
    String snapshots = mobyCtr(nodeCtr, "snapshots", "ls");
    String containers = mobyCtr(nodeCtr, "containers", "ls");
    String task = mobyCtr(nodeCtr, "tasks", "ls");
    assertThat(snapshots).contains("docker-web");
    assertThat(task).contains("docker-web").contains("RUNNING");
    long pid = Long.parseLong(task.lines()
        .filter(l -> l.startsWith("docker-web "))
        .findFirst()
        .orElseThrow()
        .trim()
        .split("\\s+")[1]);
    long shimPid = Long.parseLong(sandbox()
        .exec("awk", "/^PPid/ {print $2}", "/proc/" + pid + "/status")
        .orThrow()
        .stdout()
        .trim());
    String shimBinary = sandbox()
        .exec("readlink", "/proc/" + shimPid + "/exe")
        .orThrow()
        .stdout()
        .trim();
    assertThat(shimBinary)
        .as("docker-web's shim runs the node's shim binary")
        .startsWith(LAYOUT.root() + "/")
        .endsWith("/bin/containerd-shim-runc-v2");
    String version = Path.of(shimBinary).getParent().getParent().toString();

    String bundle = "/run/containerd/io.containerd.runtime.v2.task/moby/docker-web";
    TeardownResult report;
    String bundleAfter;
    try {
      report = reset();
      bundleAfter = sandbox()
          .exec(
              "sh",
              "-c",
              "cat " + bundle + "/config.json >/dev/null && mountpoint " + bundle + "/rootfs")
          .stdout();
    } finally {
      Files.writeString(
          sandbox().path("/opt/after-node/config.toml"),
          "version = 2\ndisabled_plugins = [\"io.containerd.grpc.v1.cri\"]\n",
          UTF_8);
      sandbox()
          .exec(
              "systemd-run",
              "--unit",
              "after-node-containerd.service",
              "-E",
              "PATH=/opt/after-node/bin:/usr/sbin:/usr/bin:/sbin:/bin",
              "/opt/after-node/bin/containerd",
              "--config",
              "/opt/after-node/config.toml")
          .orThrow();
    }
    String ctr = "/opt/after-node/bin/ctr";
    try {
      awaitCtr(ctr);
      assertThat(report.blocking())
          .as("%s", report)
          .extracting(TeardownResult.Kept::reason)
          .containsOnly(KeepReason.OTHER_NAMESPACES, KeepReason.USED_BY_FOREIGN_SHIMS);
      assertThat(report.kept(KeepReason.OTHER_NAMESPACES)).singleElement().satisfies(k -> {
        assertThat(k.subject()).isEqualTo("/var/lib/containerd");
        assertThat(k.detail()).contains("moby (1 containers");
      });
      assertThat(report.kept(KeepReason.USED_BY_FOREIGN_SHIMS)).anySatisfy(k -> {
        assertThat(k.subject()).isEqualTo(version);
        assertThat(k.detail()).contains(shimBinary + " -namespace moby -id docker-web");
      });
      assertThat(sandbox().exec("test", "-x", shimBinary).succeeded())
          .as("the shim binary docker-web's shim runs, through the reset")
          .isTrue();
      assertThat(sandbox().exec("test", "-x", version + "/bin/runc").succeeded())
          .as("the node's runc beside it")
          .isTrue();
      assertThat(teardown().present())
          .as("the node stays for a reset run again")
          .isTrue();
      assertThat(mobyCtr(ctr, "snapshots", "ls"))
          .as("docker-web's snapshot, through the reset")
          .isEqualTo(snapshots);
      assertThat(mobyCtr(ctr, "containers", "ls"))
          .as("the moby namespace's containers")
          .isEqualTo(containers);
      assertThat(bundleAfter)
          .as("docker-web's bundle, its root filesystem mounted")
          .contains("is a mountpoint");
      assertThat(sandbox().exec("test", "-e", "/proc/" + pid).succeeded())
          .as("docker-web's process, through the reset")
          .isTrue();
      assertThat(mobyCtr(ctr, "tasks", "ls"))
          .as("docker-web's task, taken over by the containerd started after the reset")
          .contains("docker-web")
          .contains(Long.toString(pid))
          .contains("RUNNING");

      // the operator ends the container through that containerd and removes the namespace
      sandbox()
          .exec(ctr, "-n", "moby", "tasks", "kill", "-s", "SIGKILL", "docker-web")
          .orThrow();
      awaitGone(pid);
      sandbox().exec(ctr, "-n", "moby", "tasks", "delete", "docker-web").orThrow();
      awaitGone(shimPid);
      sandbox().exec(ctr, "-n", "moby", "containers", "delete", "docker-web").orThrow();
      sandbox()
          .exec(
              ctr,
              "-n",
              "moby",
              "images",
              "rm",
              "--sync",
              RealPods.IMAGE,
              NodeConstants.SANDBOX_IMAGE)
          .orThrow();
      sandbox().exec(ctr, "namespaces", "rm", "moby").orThrow();
    } finally {
      sandbox().systemctl("stop", "after-node-containerd.service");
      sandbox().exec("rm", "-rf", "/opt/after-node");
    }
    TeardownResult again = reset();
    assertThat(again.complete()).as("%s", again).isTrue();
    assertThat(teardown().present()).isFalse();
  }

  private static String mobyCtr(String ctr, String... args) {
    List<String> argv = new ArrayList<>(List.of(ctr, "-n", "moby"));
    argv.addAll(List.of(args));
    return sandbox().exec(argv, Duration.ofSeconds(60)).orThrow().stdout();
  }

  private static void awaitGone(long pid) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (sandbox().exec("test", "-e", "/proc/" + pid).succeeded()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("pid " + pid + " did not end");
      }
      Thread.sleep(100);
    }
  }

  private static void awaitCtr(String ctr) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!sandbox().exec(ctr, "version").succeeded()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no containerd serves after the reset: "
            + sandbox().journal("after-node-containerd.service"));
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aTeardownOfANodeWithRunningPodsLeavesNothingOfItAndAHostDirectoryVolumeByteIdentical()
      throws Exception {
    sandbox()
        .exec(
            "sh",
            "-c",
            "mkdir -p /srv/precious/sub && echo ledger > /srv/precious/ledger.txt"
                + " && head -c 65536 /dev/urandom > /srv/precious/sub/blob && ln -s ledger.txt "
                + "/srv/precious/link")
        .orThrow();
    String before = treeDigest("/srv/precious");
    bootstrap(base);
    RealPods pods = pods();
    pods.writeNetworkConfiguration();
    String uid = "0a1b2c3d-00aa";
    String hostVolume = "/var/lib/kubelet/pods/" + uid + "/volumes/kubernetes.io~local-volume/data";
    pods.exec("mkdir", "-p", hostVolume);
    pods.exec("mount", "--bind", "/srv/precious", hostVolume);
    RealPod holder = pods.start("db-1", uid, "kubernetes.io~local-volume/data");
    RealPod other = pods.start("web-1", "0a1b2c3d-00ab", "kubernetes.io~empty-dir/cache");
    assertThat(pods.execIn("db-1", "cat", "/data/ledger.txt").orThrow().stdout())
        .isEqualTo("ledger\n");
    assertThat(pods.reaches("db-1", other.address())).isTrue();

    TeardownResult report = reset();
    assertThat(report.blocking())
        .as("what the teardown could not remove: %s", report)
        .isEmpty();

    assertThat(treeDigest("/srv/precious"))
        .as("the host directory a pod's volume bound, after the teardown (report: %s)", report)
        .isEqualTo(before);
    for (RealPod pod : List.of(holder, other)) {
      assertNothingLeftOf(pod);
      assertThat(Files.exists(sandbox().path("/sys/fs/cgroup" + pod.cgroup())))
          .as(pod.id() + "'s cgroup")
          .isFalse();
    }
    assertThat(mountinfo())
        .as("no mount of the node is left")
        .doesNotContain("/var/lib/kubelet")
        .doesNotContain("/run/containerd")
        .doesNotContain("io.containerd");
    assertThat(sandbox()
            .exec("sh", "-c", "ps -eo comm | grep -c containerd")
            .stdout()
            .strip())
        .as("no containerd or shim runs")
        .isEqualTo("0");
    assertThat(Files.exists(sandbox().path("/sys/fs/cgroup/kubepods")))
        .as("the pod cgroups")
        .isFalse();
    assertThat(pods.exec("ip", "-o", "link", "show", "type", "veth")).isEmpty();
    for (String dir : List.of("/var/lib/cni", "/var/lib/kubelet", "/run/containerd")) {
      assertThat(Files.exists(sandbox().path(dir))).as(dir).isFalse();
    }
    assertThat(emptyOrAbsent("/var/lib/containerd"))
        .as("containerd's disk holds nothing of the node")
        .isTrue();
  }

  /**
   * A pod whose process ignores SIGTERM, and a process of that pod which holds its volume's bind
   * mount busy from the node's mount namespace (its working directory is in it): the teardown ends
   * both (the pod's cgroup is killed, not asked) and then unmounts the volume. A holder that is no
   * process of the node's (an administrator's shell) is not ended: its mount is reported kept,
   * nothing at or below it is touched, and the teardown, run again once the holder is gone,
   * completes. The host directory behind the volume is byte-identical throughout.
   */
  @Test
  void aTeardownEndsAPodThatIgnoresSigtermAndNeverEmptiesAMountAForeignProcessHolds()
      throws Exception {
    sandbox()
        .exec(
            "sh",
            "-c",
            "mkdir -p /srv/held && echo kept > /srv/held/a && head -c 4096 "
                + "/dev/urandom > /srv/held/b")
        .orThrow();
    String before = treeDigest("/srv/held");
    bootstrap(base);
    RealPods pods = pods();
    pods.writeNetworkConfiguration();
    String uid = "0a1b2c3d-00cc";
    String volume = "/var/lib/kubelet/pods/" + uid + "/volumes/kubernetes.io~local-volume/held";
    pods.exec("mkdir", "-p", volume);
    pods.exec("mount", "--bind", "/srv/held", volume);
    RealPod stubborn = pods.start(
        "stubborn",
        uid,
        "kubernetes.io~local-volume/held",
        "/bin/sh",
        "-c",
        "trap '' TERM; while true; do sleep 1; done");
    long inPod = holdOpen("pod-holder", volume);
    pods.exec(
        "sh", "-c", "echo " + inPod + " > /sys/fs/cgroup" + stubborn.cgroup() + "/cgroup.procs");
    long foreign = holdOpen("admin-shell", volume);

    TeardownResult first = reset();

    assertThat(sandbox().exec("test", "-e", "/proc/" + stubborn.pid()).succeeded())
        .as("the pod's SIGTERM-ignoring process")
        .isFalse();
    assertThat(sandbox().exec("test", "-e", "/proc/" + inPod).succeeded())
        .as("the pod's process holding its volume")
        .isFalse();
    assertThat(sandbox().exec("test", "-e", "/proc/" + foreign).succeeded())
        .as("the foreign holder is not the node's to end")
        .isTrue();
    assertThat(first.blocking())
        .as("%s", first)
        .anySatisfy(kept -> assertThat(kept.toString()).contains(volume));
    assertThat(mountinfo()).contains(volume);
    assertThat(treeDigest("/srv/held")).as("the held volume's directory").isEqualTo(before);
    assertThat(treeDigest(volume)).as("nothing below the kept mount touched").isEqualTo(before);

    sandbox().systemctl("stop", "admin-shell.service").orThrow();
    TeardownResult second = teardown().destroy();

    assertThat(second.complete()).as("%s", second).isTrue();
    assertThat(mountinfo()).doesNotContain("/var/lib/kubelet");
    assertThat(teardown().present()).isFalse();
    assertThat(treeDigest("/srv/held")).isEqualTo(before);
  }

  /** A transient unit whose process sits in {@code dir}; its pid. */
  private static long holdOpen(String unit, String dir) {
    sandbox()
        .exec("systemd-run", "--unit", unit, "--working-directory", dir, "sleep", "600")
        .orThrow();
    return Long.parseLong(sandbox()
        .systemctl("show", "-p", "MainPID", "--value", unit)
        .orThrow()
        .stdout()
        .strip());
  }

  // ------------------------------------------------------------------------------- leftovers

  private static void assertNothingLeftOf(RealPod pod) throws IOException {
    assertThat(sandbox().exec("test", "-e", "/proc/" + pod.shimPid()).succeeded())
        .as(pod.id() + "'s shim (pid %d)", pod.shimPid())
        .isFalse();
    assertThat(sandbox().exec("test", "-e", "/proc/" + pod.pid()).succeeded())
        .as(pod.id() + "'s process (pid %d)", pod.pid())
        .isFalse();
    assertThat(sandbox()
            .exec(
                "sh",
                "-c",
                "find /sys/fs/cgroup" + pod.cgroup()
                    + " -name cgroup.procs -exec cat {} + 2>/dev/null")
            .stdout()
            .strip())
        .as(pod.id() + "'s cgroup holds no process")
        .isEmpty();
    assertThat(mountinfo())
        .as(pod.id() + "'s rootfs and snapshot mounts")
        .doesNotContain("/k8s.io/" + pod.id() + "/")
        .doesNotContain("/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots");
    assertThat(sandbox()
            .exec(
                "sh",
                "-c",
                "ls -l /proc/[0-9]*/ns/net 2>/dev/null | grep -F '" + pod.netns()
                    + "' ; ls /var/run/netns 2>/dev/null")
            .stdout()
            .strip())
        .as(pod.id() + "'s network namespace")
        .isEmpty();
    assertThat(sandbox().exec("ip", "-o", "link", "show").orThrow().stdout())
        .as(pod.id() + "'s veth")
        .doesNotContain(pod.hostVeth() + "@");
    assertThat(Files.exists(
            sandbox().path("/var/lib/cni/networks/" + RealPods.NETWORK + "/" + pod.address())))
        .as(pod.id() + "'s address reservation")
        .isFalse();
  }

  private static String mountinfo() throws IOException {
    return Files.readString(Path.of("/proc", Long.toString(sandbox().pid()), "mountinfo"));
  }

  private static String treeDigest(String dir) {
    return sandbox()
        .exec(
            "sh",
            "-c",
            "cd " + dir + " && find . -printf '%p %y %m %l\\n' | sort && "
                + "find . -type f -print0 | sort -z | xargs -0 sha256sum")
        .orThrow()
        .stdout();
  }

  private static boolean emptyOrAbsent(String dir) throws IOException {
    Path p = sandbox().path(dir);
    if (!Files.exists(p)) {
      return true;
    }
    try (var entries = Files.list(p)) {
      return entries.findAny().isEmpty();
    }
  }

  // --------------------------------------------------------------------------------- the node

  private static RealPods pods() throws IOException {
    return new RealPods(
        sandbox(),
        LAYOUT.currentBin().resolve("ctr").toString(),
        LAYOUT.currentBin().resolve("runc").toString());
  }

  static Node node(AgentConfig config, Optional<AgentConfig> previous) {
    return SandboxNodes.node(ports, Optional.of(config), previous, KUBELET_READY, NodeEvents.NONE);
  }

  static Node bootstrap(AgentConfig config) throws IOException {
    Node node = node(config, Optional.empty());
    node.provision();
    ConfigureResult changes = node.configure();
    node.start(node.running(), changes);
    applied().write(config);
    return node;
  }

  /**
   * The operator's {@code noneops reset}: {@link Node#reset()}, which needs no configuration, and
   * leaves neither the node's LocalDNS interface nor its pods' bridge.
   */
  static TeardownResult reset() throws Exception {
    ResetResult reset = SandboxNodes.node(
            ports, Optional.empty(), Optional.empty(), KUBELET_READY, NodeEvents.NONE)
        .reset();
    assertThat(sandbox().exec("ip", "link", "show", "dev", RealPods.BRIDGE).exitCode())
        .as("the pods' bridge %s after the reset (%s)", RealPods.BRIDGE, reset.hostCleanup())
        .isNotZero();
    return reset.report();
  }

  static long mainPid() {
    return systemd.status(HostPaths.CONTAINERD_UNIT).mainPid();
  }

  static Teardown teardown() {
    return SandboxNodes.teardown(ports);
  }

  static AppliedConfigStore applied() {
    return new AppliedConfigStore(ports.files(), PATHS);
  }

  static String versionOf(AgentConfig config) throws IOException {
    return node(config, Optional.empty()).goalState().rootFs().versionName();
  }

  static SystemdSandbox sandbox() {
    return SANDBOX.sandbox();
  }

  static String json(String kubernetes, String containerd) {
    String json = ConfigJson.of(kubernetes)
        .withContainerd(containerd)
        .withRunc(RUNC.version())
        .withDownloadsFrom(server.uri().toString())
        .withLocalDnsBindAddress(DNS_ADDRESS)
        .json();
    String bind = "\"BindAddress\": \"" + DNS_ADDRESS + "\"";
    return json.replace(bind, bind + ", \"InterfaceName\": \"" + DNS_INTERFACE + "\"");
  }

  static AgentConfig config(String json) throws IOException {
    return AgentConfigParser.parseAndValidate(
        json.getBytes(UTF_8), ports.facts().read().arch());
  }
}
