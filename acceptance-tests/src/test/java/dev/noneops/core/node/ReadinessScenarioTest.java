package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.node.Node.ConfigureResult;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.testkit.health.SimHealthProbes;
import dev.noneops.testkit.node.SimulatedNode;
import dev.noneops.testkit.systemd.UnitBehaviour;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starts and restarts wait for readiness, boundedly, and say what they waited for. */
class ReadinessScenarioTest {

  @Test
  void aKubeletThatNeverBecomesReadyFailsTheStartAfterABoundedWaitNamingTheUnit() {
    SimulatedNode lab = new SimulatedNode();
    MachineGoalState goal = lab.goal(SimulatedNode.config());
    lab.publish(goal);
    lab.host.probes().setHttp(StackControl.KUBELET_HEALTHZ, SimHealthProbes.Answer.REFUSED);
    Node node = lab.node(goal);
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    Duration before = lab.host.clock().elapsed();

    ReadinessTimeoutException timeout =
        catchThrowableOfType(ReadinessTimeoutException.class, () -> node.start(false, changes));

    assertThat(timeout.unit()).isEqualTo("kubelet.service");
    assertThat(timeout.waited()).isEqualTo(Duration.ofSeconds(120));
    assertThat(timeout.failedAt()).contains("start › wait-kubelet");
    assertThat(timeout)
        .hasMessage("kubelet.service did not become ready in 120 s (active; healthz at "
            + StackControl.KUBELET_HEALTHZ + " not answering)");
    assertThat(lab.host.clock().elapsed().minus(before)).isEqualTo(Duration.ofSeconds(120));
    long polls =
        lab.host.journal().calls().stream().filter(c -> c.is("probes.httpOk")).count();
    Duration interval = NodeTimeouts.DEFAULTS.pollInterval();
    assertThat(polls)
        .as("one probe at once, then one every %s until the deadline", interval)
        .isEqualTo(Duration.ofSeconds(120).dividedBy(interval) + 1);
  }

  @Test
  void aHangingHealthzIsBoundedByTheSameWait() {
    SimulatedNode lab = new SimulatedNode();
    MachineGoalState goal = lab.goal(SimulatedNode.config());
    lab.publish(goal);
    lab.host.probes().setHttp(StackControl.KUBELET_HEALTHZ, SimHealthProbes.Answer.HANGS);
    Node node = lab.node(goal);
    node.provision();
    ConfigureResult changes = node.configure();
    Duration before = lab.host.clock().elapsed();

    ReadinessTimeoutException timeout =
        catchThrowableOfType(ReadinessTimeoutException.class, () -> node.start(false, changes));

    assertThat(timeout.waited()).isBetween(Duration.ofSeconds(120), Duration.ofSeconds(122));
    assertThat(lab.host.clock().elapsed().minus(before))
        .isLessThanOrEqualTo(Duration.ofSeconds(122));
  }

  @Test
  void aUnitThatFailsToStartStopsTheStartNamingTheUnitAndKubeletIsNotStarted() {
    SimulatedNode lab = new SimulatedNode();
    MachineGoalState goal = lab.goal(SimulatedNode.config());
    lab.publish(goal);
    lab.host.systemd().setBehaviour("containerd.service", UnitBehaviour.failsToStart());
    Node node = lab.node(goal);
    node.provision();
    ConfigureResult changes = node.configure();

    UnitJobException failed =
        catchThrowableOfType(UnitJobException.class, () -> node.start(false, changes));

    assertThat(failed.unit()).isEqualTo("containerd.service");
    assertThat(failed.result()).isEqualTo(JobResult.FAILED);
    assertThat(failed.failedAt()).contains("start › start-localdns-and-containerd");
    assertThat(failed).hasMessageStartingWith("start containerd.service: job failed");
    assertThat(lab.host.journal().calls()).noneMatch(c -> c.is("systemd.start", "kubelet.service"));
  }

  @Test
  void restartGoesLocalDnsThenContainerdThenKubeletWaitingForDnsAndForKubelet() {
    SimulatedNode lab = new SimulatedNode();
    Node node = lab.bootstrap(lab.goal(SimulatedNode.config()));
    lab.host.journal().clear();

    node.restart();

    assertThat(lab.unitJobsAndWaits())
        .containsExactly(
            "systemd.restart(localdns.service)",
            "probes.dnsAnswers(169.254.20.10)",
            "systemd.restart(containerd.service)",
            "systemd.restart(kubelet.service)",
            "systemd.awaitState(kubelet.service)");
    assertThat(node.running()).isTrue();
  }

  @Test
  void restartWaitsBoundedlyForLocalDnsAndRestartsNothingElseWhenItNeverAnswers() {
    SimulatedNode lab = new SimulatedNode();
    Node node = lab.bootstrap(lab.goal(SimulatedNode.config()));
    lab.host.probes().setDns("169.254.20.10", SimHealthProbes.Answer.REFUSED);
    lab.host.journal().clear();

    ReadinessTimeoutException timeout =
        catchThrowableOfType(ReadinessTimeoutException.class, node::restart);

    assertThat(timeout.unit()).isEqualTo("localdns.service");
    assertThat(timeout.waited()).isEqualTo(Duration.ofSeconds(30));
    assertThat(timeout.failedAt()).contains("restart › wait-localdns");
    assertThat(timeout).hasMessageContaining("no DNS answer on 169.254.20.10:53");
    List<String> jobs =
        lab.unitJobsAndWaits().stream().filter(s -> s.startsWith("systemd.")).toList();
    assertThat(jobs).containsExactly("systemd.restart(localdns.service)");
  }
}
