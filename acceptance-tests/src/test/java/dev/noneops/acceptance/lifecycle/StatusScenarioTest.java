package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.InstalledVersions;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeStatus;
import dev.noneops.core.node.NodeStatus.Pods;
import dev.noneops.ports.commands.Command;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Node.inspect().status()} answers what an operator asks first: the versions with their sizes, each
 * unit since when it is active, and how many pods containerd runs (asked of the node's own
 * {@code ctr}, bounded, unknown while containerd is down).
 */
class StatusScenarioTest {
  private static final String TASKS = """
      TASK                                                                PID     STATUS
      aaaa1111                                                            4101    RUNNING
      bbbb2222                                                            4102    RUNNING
      cccc3333                                                            4103    RUNNING
      dddd4444                                                            4104    STOPPED
      eeee5555                                                            4105    RUNNING
      """;

  private final SimNode lab = new SimNode();
  private Node node;
  private Instant started;

  @BeforeEach
  void aBootstrappedNode() {
    started = lab.host.clock().now();
    node = lab.bootstrap(SimNode.config());
  }

  private void ctrAnswers(CommandOutcome tasks, CommandOutcome sandboxes) {
    lab.host
        .commands()
        .register(
            List.of("ctr"),
            (Command c) -> c.argv().contains("tasks")
                ? tasks
                : c.argv().contains("containers") ? sandboxes : CommandOutcome.failed(1, "usage"));
  }

  @Test
  void theActiveVersionHasItsSizeFromItsManifest() throws Exception {
    NodeStatus status = node.inspect().status();

    InstalledVersions.Version listed =
        node.inspect().installedVersions().versions().get(0);
    assertThat(status.versionSizes())
        .containsExactly(new NodeStatus.VersionSize(
            status.activeVersion(), true, listed.bytes(), listed.files()));
    assertThat(listed.bytes()).isPositive();
  }

  @Test
  void eachActiveUnitSaysSinceWhenItIsActiveAndAStoppedOneDoesNot() throws Exception {
    lab.host.clock().advance(Duration.ofMinutes(5));
    lab.host.systemd().stop(HostPaths.KUBELET_UNIT, Duration.ofSeconds(10));

    NodeStatus status = node.inspect().status();

    Instant localDns = Instant.parse(status.units().get(HostPaths.LOCALDNS_UNIT).activeSince());
    assertThat(localDns).isBetween(started, started.plus(Duration.ofMinutes(1)));
    assertThat(status.units().get(HostPaths.KUBELET_UNIT).activeSince()).isNull();
  }

  @Test
  void thePodsAreTheRunningSandboxesAmongContainerdsRunningTasks() throws Exception {
    ctrAnswers(CommandOutcome.ok(TASKS), CommandOutcome.ok("aaaa1111\ndddd4444\neeee5555\n"));

    Pods pods = node.inspect().status().pods();

    assertThat(pods).isEqualTo(new Pods(2, 4, null));
    Command asked = lab.host.commands().history().stream()
        .filter(c -> c.argv().contains("tasks"))
        .findFirst()
        .orElseThrow();
    assertThat(asked.argv())
        .containsExactly(
            "/opt/unbounded/node/current/bin/ctr",
            "--address",
            "/run/containerd/containerd.sock",
            "--namespace",
            "k8s.io",
            "tasks",
            "ls");
    assertThat(asked.timeout()).isLessThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void whileContainerdIsDownThePodsAreUnknownAndCtrIsNotAsked() throws Exception {
    ctrAnswers(CommandOutcome.ok(TASKS), CommandOutcome.ok(""));
    lab.host.systemd().stop(HostPaths.CONTAINERD_UNIT, Duration.ofSeconds(10));
    int before = lab.host.commands().history().size();

    Pods pods = node.inspect().status().pods();

    assertThat(pods).isEqualTo(new Pods(null, null, "containerd is not active"));
    assertThat(lab.host.commands().history()).hasSize(before);
  }

  @Test
  void aCtrThatDoesNotAnswerWithinASecondLeavesThePodsUnknown() throws Exception {
    ctrAnswers(CommandOutcome.ok(TASKS).after(Duration.ofSeconds(5)), CommandOutcome.ok(""));
    Instant before = lab.host.clock().now();

    Pods pods = node.inspect().status().pods();

    assertThat(pods.running()).isNull();
    assertThat(pods.unknownBecause()).isEqualTo("ctr tasks ls did not answer within 1000 ms");
    assertThat(Duration.between(before, lab.host.clock().now()))
        .isLessThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void theAgentsDaemonIsReportedNotFoundWithoutTheAgentAndActiveWithIt() throws Exception {
    assertThat(node.inspect().status().agentUnit().load()).isEqualTo("not_found");

    SimNode withAgent = new SimNode();
    Node agentNode = withAgent.bootstrapWithAgent(SimNode.config());

    NodeStatus.Unit daemon = agentNode.inspect().status().agentUnit();
    assertThat(daemon.active()).isEqualTo("active");
    assertThat(daemon.activeSince()).isNotNull();
  }

  @Test
  void aNodeWithoutItsCtrSaysWhyThePodsAreUnknown() throws Exception {
    Optional<String> why = Optional.ofNullable(node.inspect().status().pods().unknownBecause());

    assertThat(why).hasValueSatisfying(w -> assertThat(w).startsWith("ctr: "));
  }
}
