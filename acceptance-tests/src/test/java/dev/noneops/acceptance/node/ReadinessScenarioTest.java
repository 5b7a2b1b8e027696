package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.ReadinessTimeoutException;
import dev.noneops.core.node.TimeoutOptions;
import dev.noneops.core.node.UnitJobException;
import dev.noneops.core.node.internal.stack.StackControl;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.health.SimHealthProbes;
import dev.noneops.testkit.systemd.UnitBehaviour;
import dev.noneops.testkit.systemd.UnitEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starts and restarts wait for readiness, boundedly, and say what they waited for. */
class ReadinessScenarioTest {

  @Test
  void aKubeletThatNeverBecomesReadyFailsTheStartAfterABoundedWaitNamingTheUnit() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
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
    Duration fast = StackControl.HEALTHZ_FIRST_INTERVAL;
    Duration first = StackControl.HEALTHZ_FIRST_PERIOD;
    Duration interval = TimeoutOptions.DEFAULTS.pollInterval();
    assertThat(fast).isLessThan(interval);
    assertThat(polls)
        .as(
            "one probe at once, one every %s for %s, then one every %s until the deadline",
            fast, first, interval)
        .isEqualTo(
            1 + first.dividedBy(fast) + Duration.ofSeconds(120).minus(first).dividedBy(interval));
  }

  @Test
  void aHealthyKubeletIsReadyOnTheFirstAnswerWithoutAnotherRoundTripToSystemd() throws Exception {
    SimNode lab = new SimNode();
    Node node = lab.bootstrap(lab.goal(SimNode.config()));
    lab.host.journal().clear();

    node.awaitKubeletReady();

    assertThat(lab.host.journal().calls())
        .filteredOn(c -> c.is("probes.httpOk"))
        .hasSize(1);
    assertThat(lab.host.journal().calls())
        .as("kubelet's state comes from systemd's signals while healthz is probed")
        .noneMatch(c -> c.is("systemd.status"));
  }

  @Test
  void aHangingHealthzIsBoundedByTheSameWait() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
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
  void aContainerdThatFailsToStartStopsTheStartNamingItAndKubeletIsNotLeftRunning() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    lab.host.systemd().setBehaviour("containerd.service", UnitBehaviour.failsToStart());
    Node node = lab.node(goal);
    node.provision();
    ConfigureResult changes = node.configure();

    UnitJobException failed =
        catchThrowableOfType(UnitJobException.class, () -> node.start(false, changes));

    assertThat(failed.unit()).isEqualTo("containerd.service");
    assertThat(failed.result()).isEqualTo(JobResult.FAILED);
    assertThat(failed.failedAt()).contains("start › start-units");
    assertThat(failed).hasMessageStartingWith("start containerd.service: job failed");
    assertThat(lab.host.systemd().status("kubelet.service").isActive())
        .as("a kubelet systemd started beside the failed containerd is stopped again")
        .isFalse();
  }

  @Test
  void aLocalDnsThatFailsToStartStopsTheStartAndLeavesKubeletStopped() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    lab.host.systemd().setBehaviour("localdns.service", UnitBehaviour.failsToStart());
    Node node = lab.node(goal);
    node.provision();
    ConfigureResult changes = node.configure();

    UnitJobException failed =
        catchThrowableOfType(UnitJobException.class, () -> node.start(false, changes));

    assertThat(failed.unit()).isEqualTo("localdns.service");
    assertThat(lab.host.systemd().status("kubelet.service").isActive()).isFalse();
    assertThat(lab.host.systemd().status("containerd.service").isActive()).isTrue();
  }

  @Test
  void restartGoesLocalDnsThenContainerdThenKubeletWaitingForDnsAndForKubelet() {
    SimNode lab = new SimNode();
    Node node = lab.bootstrap(lab.goal(SimNode.config()));
    lab.host.journal().clear();
    int seen = lab.host.systemd().history().size();

    node.restart();

    assertThat(lab.unitJobsAndWaits())
        .containsExactly(
            "systemd.restart(localdns.service)",
            "probes.dnsAnswers(169.254.20.10)",
            "systemd.stop(kubelet.service)",
            "systemd.restart(containerd.service)",
            "systemd.start(kubelet.service)",
            "systemd.awaitState(kubelet.service)");
    assertThat(node.running()).isTrue();
    List<UnitEvent> history = lab.host.systemd().history();
    assertThat(history.subList(seen, history.size()))
        .as("kubelet restarted once, after containerd")
        .filteredOn(e -> e.event().equals("started"))
        .extracting(UnitEvent::unit)
        .containsExactly("localdns.service", "containerd.service", "kubelet.service");
  }

  @Test
  void restartWaitsBoundedlyForLocalDnsAndRestartsNothingElseWhenItNeverAnswers() {
    SimNode lab = new SimNode();
    Node node = lab.bootstrap(lab.goal(SimNode.config()));
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
