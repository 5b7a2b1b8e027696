package dev.noneops.acceptance.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.SimulatedCrash;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimClusterNode;
import dev.noneops.testkit.machine.SimMachineApi;
import dev.noneops.testkit.machine.SimMachineResource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops daemon} following its node's Machine on a simulated host, against the simulated
 * API server: registration at start, repaves driven by watch events (not by polling), a rollback
 * reported and not retried, a status write that meets another writer, a lost watch, an invalid
 * spec, a drain a PodDisruptionBudget blocks until its bound, a cluster without the CRD, and an
 * agent killed at each step of a repave, restarted, recovering first and then making the Machine's
 * status true.
 */
class FollowingTheMachineTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final String MACHINE = V1.machineName();
  private static final String NODE = "sim-node";
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofSeconds(5));

  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimClusterApi cluster = new SimClusterApi();
  private final RecordingLog log = new RecordingLog();
  private SimNode lab;

  @BeforeEach
  void aNodeOnV1WithItsAgentInACluster() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    cluster.registerNode(NODE);
    lab.onKubeletStart(() -> cluster.kubeletStarted(NODE));
  }

  private NodeDaemon daemon(MachineResource machines, ClusterNode nodes) {
    return lab.daemon(log).followMachine(new Cluster(machines, nodes), TIMEOUTS, Runnable::run);
  }

  private NodeDaemon daemon() {
    return daemon(api.client(), cluster.client());
  }

  private record Cluster(MachineResource machines, ClusterNode nodes)
      implements NodeDaemon.Cluster {}

  // ---- registration ----

  @Test
  void atStartTheMachineIsRegisteredMinimalAndWatched() {
    daemon().start();

    MachineSpec spec = api.machine(MACHINE).orElseThrow().spec();
    assertThat(spec.kubernetes().bootstrapTokenRef()).startsWith("bootstrap-token-");
    assertThat(spec.kubernetes().nodeLabels()).isEqualTo(V1.kubelet().labels());
    assertThat(api.openWatches()).isEqualTo(1);
  }

  @Test
  void aMachineThatExistsIsLeftAsItIs() {
    MachineSpec theirs = MachineSpec.EMPTY.withKubernetes(
        new KubernetesSpec("1.31.4", Map.of("team", "edge"), List.of(), "mine"));
    api.put(MACHINE, theirs);

    daemon().start();

    assertThat(api.machine(MACHINE).orElseThrow().spec()).isEqualTo(theirs);
  }

  @Test
  void aClusterWithoutTheMachineCrdIsOneErrorAndTheDaemonKeepsFollowingItsFile() {
    api.removeMachineType();
    NodeDaemon daemon = daemon();
    daemon.start();
    for (int i = 0; i < 5; i++) {
      lab.host.clock().advance(Duration.ofMinutes(1));
      daemon.tick();
    }

    assertThat(log.errors())
        .singleElement()
        .satisfies(line -> assertThat(line).contains(MACHINE, "CRD"));
    lab.writeDesired(V1_GREEN);
    daemon.tick();
    assertThat(lab.applied()).contains(V1_GREEN);
  }

  // ---- repaves ----

  @Test
  void itWatchesTheMachineAndDoesNotPollIt() {
    SimMachineResource machines = api.client();
    SimClusterNode nodes = cluster.client();
    NodeDaemon daemon = daemon(machines, nodes);
    daemon.start();
    daemon.tick();
    long before = machines.requests() + nodes.requests();

    for (int i = 0; i < 100; i++) {
      lab.host.clock().advance(Duration.ofSeconds(5));
      daemon.tick();
    }

    assertThat(machines.requests() + nodes.requests())
        .as("a hundred idle ticks ask the API server nothing")
        .isEqualTo(before);
    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    long repave = machines.requests() + nodes.requests() - before;
    assertThat(repave).as("API requests of one repave").isLessThanOrEqualTo(20);
  }

  @Test
  void aRaisedCounterRepavesTheNodeToTheNewVersion() {
    NodeDaemon daemon = daemon();
    daemon.start();
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.applied()).contains(V2);
    assertThat(cluster.podsBoundTo(NODE)).isEmpty();
    assertThat(cluster.nodeObject(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertSucceeded(1);
    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.kind()).isEqualTo("repave");
      assertThat(e.outcome()).isEqualTo("REPAVED");
    });
  }

  @Test
  void aRepaveThatRollsBackIsReportedFailedAndNotRetried() {
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    NodeDaemon daemon = daemon();
    daemon.start();

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED).orElseThrow().reason())
        .isEqualTo("RolledBack");
    assertThat(cluster.nodeObject(NODE))
        .as("the old kubelet registered again; uncordoned")
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    long changes = mutatingCalls();
    api.resyncWatches();
    daemon.tick();
    daemon.tick();
    assertThat(mutatingCalls() - changes)
        .as("the quarantined target is not tried again: nothing on the host changes")
        .isZero();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(state().lastOperation().orElseThrow().outcome()).isEqualTo("ROLLED_BACK");
  }

  /**
   * A signed artifact URL is a credential: the Machine's condition and the daemon's log name the
   * URL that failed, its query keys kept so the operator can tell which, and none of its values.
   */
  @Test
  void aSignedArtifactUrlThatFailsIsReportedAndLoggedWithoutItsSecrets() {
    String signature = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY";
    AgentConfig signed = SimNode.configWithDownloads(
        "{\"Kubernetes\": {\"URL\": \"https://artifacts.example.com/k8s/v%s/%s/%s"
            + "?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=" + signature + "\"}}");
    lab = new SimNode();
    lab.bootstrapWithAgent(signed);
    lab.onKubeletStart(() -> cluster.kubeletStarted(NODE));
    NodeDaemon daemon = daemon();
    daemon.start();

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    MachineCondition repaved = status().condition(MachineCondition.REPAVED).orElseThrow();
    assertThat(repaved.status()).isEqualTo(MachineCondition.Status.FALSE);
    assertThat(repaved.message())
        .contains("https://artifacts.example.com/k8s/v1.31.5/", "X-Amz-Signature=")
        .doesNotContain(signature, "AKIDEXAMPLE");
    assertThat(log.lines())
        .anySatisfy(line -> assertThat(line).contains("X-Amz-Signature="))
        .noneSatisfy(line -> assertThat(line).contains(signature))
        .noneSatisfy(line -> assertThat(line).contains("AKIDEXAMPLE"));
  }

  @Test
  void aStatusWriteThatMeetsAnotherWriterIsReadAgainAndKeepsWhatTheOtherWrote() {
    MachineCondition theirs = new MachineCondition(
        "Healthy",
        MachineCondition.Status.TRUE,
        "Probe",
        "from the fleet's controller",
        Instant.parse("2026-03-01T10:00:00Z"));
    ClusterNode anotherWriterDuringTheDrain = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public boolean deleteNode(String node) throws IOException {
        api.writeStatus(MACHINE, s -> s.withCondition(theirs));
        return super.deleteNode(node);
      }
    };
    SimMachineResource machines = api.client();
    NodeDaemon daemon = daemon(machines, anotherWriterDuringTheDrain);
    daemon.start();
    api.conflictOnNextStatusWrites(2);

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    assertSucceeded(1);
    assertThat(status().condition("Healthy")).contains(theirs);
  }

  @Test
  void aChangeMadeWhileTheWatchWasLostIsSeenWhenItResumes() {
    NodeDaemon daemon = daemon();
    daemon.start();
    daemon.tick();
    api.loseWatches();

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();
    assertThat(lab.activeVersionRaw()).as("the watch saw nothing").contains(lab.versionOf(V1));

    api.restoreWatches();
    daemon.tick();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertSucceeded(1);
  }

  @Test
  void anInvalidSpecIsReportedWithItsViolationsAndChangesNothing() {
    NodeDaemon daemon = daemon();
    daemon.start();
    daemon.tick();
    Map<String, String> before = withoutAgentState(lab.sharedFiles());

    askRepave(1, k -> k.withVersion("not-a-version"));
    daemon.tick();

    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(before);
    assertThat(status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("not-a-version");
    assertThat(cluster.nodeObject(NODE)).as("not drained, not removed").isPresent();
  }

  @Test
  void aDrainABudgetBlocksIsRetriedUntilItsBoundThenReportedFailedWithTheNodeUncordoned() {
    NodeDaemon daemon = daemon();
    daemon.start();
    daemon.tick();
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);
    Map<String, String> before = withoutAgentState(lab.sharedFiles());
    Instant started = lab.host.clock().now();

    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    assertThat(Duration.between(started, lab.host.clock().now()))
        .isGreaterThanOrEqualTo(TIMEOUTS.drain());
    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(before);
    assertThat(cluster.nodeObject(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    assertThat(status().phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("shop/web-1");
  }

  @Test
  void newClientsAfterACredentialRotationCarryTheWatch() {
    SimMachineResource before = api.client();
    SimMachineResource after = api.client();
    boolean[] rotated = {false};
    NodeDaemon.Cluster rotating = new NodeDaemon.Cluster() {
      @Override
      public MachineResource machines() {
        return rotated[0] ? after : before;
      }

      @Override
      public ClusterNode nodes() {
        return cluster.client();
      }
    };
    NodeDaemon daemon = new NodeDaemon(
            lab.host.ports(),
            lab.layout,
            lab.paths,
            (config, previous) -> lab.node(config.orElseThrow(), previous),
            new NodeDaemon.Options(SimNode.AGENT_CONFIG_FILE, Duration.ofSeconds(5), "amd64"),
            NodeDaemon.Listener.NONE,
            log)
        .followMachine(rotating, TIMEOUTS, Runnable::run);
    daemon.start();
    daemon.tick();

    rotated[0] = true;
    daemon.tick();
    long beforeRequests = before.requests();
    askRepave(1, k -> k.withVersion("1.31.5"));
    daemon.tick();

    assertThat(api.openWatches()).as("the old watch closed, a new one open").isEqualTo(1);
    assertThat(before.requests())
        .as("nothing more through the old clients")
        .isEqualTo(beforeRequests);
    assertThat(after.requests()).isPositive();
    assertSucceeded(1);
  }

  // ---- an API server that does not answer ----

  @Test
  void anApiServerThatDoesNotAnswerHoldsUpNeitherTheFileNorTheUnitWatch() throws Exception {
    CountDownLatch answers = new CountDownLatch(1);
    NodeDaemon daemon = silentApiDaemon(answers);
    try {
      assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
        daemon.start();
        lab.writeDesired(V1_GREEN);
        daemon.tick();
        daemon.tick();
        assertThat(state().lastOperation().orElseThrow().outcome()).isEqualTo("APPLIED");
        lab.host.ports().systemd().kill("kubelet.service", false, 9);
        daemon.tick();
      });
      assertThat(log.errors()).anyMatch(l -> l.contains("kubelet.service failed"));
    } finally {
      answers.countDown();
      daemon.stop(Duration.ofSeconds(10));
    }
  }

  @Test
  void aStopWaitsForTheMachinesCallUnderWayForAtMostItsGrace() throws Exception {
    CountDownLatch answers = new CountDownLatch(1);
    NodeDaemon daemon = silentApiDaemon(answers);
    try {
      daemon.start();
      long stopping = System.nanoTime();
      daemon.stop(Duration.ofMillis(300));
      Duration stopped = Duration.ofNanos(System.nanoTime() - stopping);

      assertThat(stopped).isBetween(Duration.ofMillis(300), Duration.ofSeconds(5));
      assertThat(log.lines())
          .anyMatch(l -> l.startsWith("WARN ") && l.contains("Machine operation in progress"));
    } finally {
      answers.countDown();
    }
  }

  private NodeDaemon silentApiDaemon(CountDownLatch answers) {
    return lab.daemon(log)
        .followMachine(
            new Cluster(new SilentMachineResource(api.client(), answers), cluster.client()),
            TIMEOUTS);
  }

  /** An API server that takes calls and answers none until {@code answers} is counted down. */
  private record SilentMachineResource(MachineResource delegate, CountDownLatch answers)
      implements MachineResource {
    private void hang() throws IOException {
      try {
        answers.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the API server did not answer", e);
      }
    }

    @Override
    public Optional<Machine> get(String name) throws IOException {
      hang();
      return delegate.get(name);
    }

    @Override
    public boolean create(String name, MachineSpec spec) throws IOException {
      hang();
      return delegate.create(name, spec);
    }

    @Override
    public MachineWatch watch(String name, MachineListener listener) throws IOException {
      hang();
      return delegate.watch(name, listener);
    }

    @Override
    public Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation)
        throws IOException {
      hang();
      return delegate.updateStatus(name, mutation);
    }
  }

  // ---- an agent killed mid-repave ----

  @Test
  void killedAfterProvisioningWasWrittenTheRestartedAgentRepavesTheNode() {
    NodeDaemon first = daemon(
        KillingMachineResource.afterWriting(api.client(), MachinePhase.PROVISIONING),
        cluster.client());
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);
    assertThat(status().phase()).isEqualTo(MachinePhase.PROVISIONING);

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertSucceeded(1);
  }

  @Test
  void killedAfterTheDrainTheRestartedAgentRepavesTheNode() {
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    ClusterNode killedBeforeTheNodeIsRemoved = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public boolean deleteNode(String node) {
        throw new AgentKilled("after the drain");
      }
    };
    NodeDaemon first = daemon(api.client(), killedBeforeTheNodeIsRemoved);
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);
    assertThat(cluster.podsBoundTo(NODE)).isEmpty();
    assertThat(cluster.nodeObject(NODE).orElseThrow().unschedulable()).isTrue();

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(cluster.nodeObject(NODE).orElseThrow().unschedulable()).isFalse();
    assertSucceeded(1);
  }

  @Test
  void killedAfterTheDrainOfANodeTheOperatorHadCordonedTheRestartedAgentKeepsTheCordon()
      throws IOException {
    cluster.client().cordon(NODE);
    NodeDaemon first = daemon(api.client(), killedBeforeTheNodeIsRemoved());
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(cluster.nodeObject(NODE).orElseThrow().unschedulable())
        .as("the operator's cordon, kept on the Node registered again")
        .isTrue();
    assertSucceeded(1);
  }

  /**
   * The cordon a restarted agent finds is the one its drain put before it was killed, not an
   * operator's: the repave remembered, on the host, that the node was schedulable.
   */
  @Test
  void killedAfterTheDrainTheRestartedAgentWhoseDrainIsBlockedUncordonsTheNode() {
    NodeDaemon first = daemon(api.client(), killedBeforeTheNodeIsRemoved());
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);
    assertThat(cluster.nodeObject(NODE).orElseThrow().unschedulable()).isTrue();
    cluster.bindPod(NODE, "shop", "web-1", Map.of("app", "web"));
    cluster.putBudget("shop", "web", Map.of("app", "web"), 0);

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(status().condition(MachineCondition.REPAVED).orElseThrow().reason())
        .isEqualTo("DrainBlocked");
    assertThat(cluster.nodeObject(NODE).orElseThrow().unschedulable()).isFalse();
  }

  private ClusterNode killedBeforeTheNodeIsRemoved() {
    return new ClusterNodeDelegate(cluster.client()) {
      @Override
      public boolean deleteNode(String node) {
        throw new AgentKilled("after the drain");
      }
    };
  }

  @Test
  void killedMidUpgradeTheRestartedAgentRecoversFirstThenReportsTheRollback() {
    ClusterNode killedDuringTheUpgrade = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public boolean deleteNode(String node) throws IOException {
        boolean deleted = super.deleteNode(node);
        // killed when the upgrade, past its flip, starts the new kubelet
        lab.host
            .faults()
            .add(FaultRule.when(c -> c.is("systemd.restart", "kubelet.service")
                    || SimNode.startsUnit(c, "kubelet.service"))
                .times(1)
                .failWith(c -> new AgentKilled("mid-upgrade")));
        return deleted;
      }
    };
    NodeDaemon first = daemon(api.client(), killedDuringTheUpgrade);
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);
    assertThat(lab.exists(lab.layout.journal()))
        .as("killed with the upgrade in flight")
        .isTrue();

    NodeDaemon second = daemon();
    second.start();
    assertThat(state().startRecovery().orElseThrow().outcome()).isEqualTo("ROLLED_BACK");
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.stackActive()).isTrue();
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED).orElseThrow()).satisfies(c -> {
      assertThat(c.reason()).isEqualTo("RolledBack");
      assertThat(c.message()).contains("interrupted");
    });
    assertThat(cluster.nodeObject(NODE))
        .hasValueSatisfying(n -> assertThat(n.unschedulable()).isFalse());
    long changes = mutatingCalls();
    api.resyncWatches();
    second.tick();
    assertThat(mutatingCalls() - changes).as("not tried again").isZero();
  }

  @Test
  void aPowerCutMidUpgradeIsRolledBackByTheGateAtBootAndTheRestartedAgentReportsIt() {
    ClusterNode cutDuringTheUpgrade = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public boolean deleteNode(String node) throws IOException {
        boolean deleted = super.deleteNode(node);
        // the power goes when the upgrade, past its flip, starts the new kubelet
        lab.host
            .faults()
            .add(FaultRule.when(c -> c.is("systemd.restart", "kubelet.service")
                    || SimNode.startsUnit(c, "kubelet.service"))
                .times(1)
                .failWith(c -> new SimulatedCrash("power cut as the new kubelet starts", 0)));
        return deleted;
      }
    };
    NodeDaemon first = daemon(api.client(), cutDuringTheUpgrade);
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(SimulatedCrash.class);
    lab.powerCutAndBoot();
    assertThat(state().bootRecovery().orElseThrow().outcome())
        .as("the gate rolled the upgrade back at boot")
        .isEqualTo("ROLLED_BACK");

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("interrupted");
  }

  @Test
  void killedAfterTheUpgradeBeforeTheStatusWriteTheRestartedAgentFinishesTheRepave() {
    NodeDaemon first = daemon(
        KillingMachineResource.beforeWriting(api.client(), MachinePhase.JOINING), cluster.client());
    first.start();
    askRepave(1, k -> k.withVersion("1.31.5"));
    assertThatThrownBy(first::tick).isInstanceOf(AgentKilled.class);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(status().phase()).isEqualTo(MachinePhase.PROVISIONING);

    NodeDaemon second = daemon();
    second.start();
    second.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertSucceeded(1);
  }

  // ---- helpers ----

  private void askRepave(long counter, UnaryOperator<KubernetesSpec> change) {
    api.updateSpec(
        MACHINE,
        s -> s.withKubernetes(change.apply(s.kubernetes()))
            .withOperations(s.operations().withRepaveCounter(counter)));
  }

  private void assertSucceeded(long counter) {
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(status.operations().repaveCounter()).isEqualTo(counter);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(MachineCondition.Status.TRUE);
      assertThat(c.reason()).isEqualTo("Succeeded");
    });
  }

  /** The calls that may change the host, but the agent's own state file. */
  private long mutatingCalls() {
    return lab.host.journal().calls().stream()
        .filter(c -> c.mutating())
        .filter(c -> c.args().stream().noneMatch(a -> a.contains("agent-state")))
        .count();
  }

  private MachineStatus status() {
    return api.machine(MACHINE).orElseThrow().status();
  }

  private AgentState state() {
    return AgentState.read(lab.host.ports().files(), lab.paths);
  }

  private Map<String, String> withoutAgentState(Map<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.remove(lab.paths.agentState().toString());
    out.remove(SimNode.AGENT_CONFIG_FILE.toString());
    return out;
  }
}
