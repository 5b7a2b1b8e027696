package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.UnitJobException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.process.SimProcess;
import dev.noneops.testkit.systemd.UnitBehaviour;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code apply} on a node where part of the stack is stopped: a unit that runs with a changed
 * configuration is restarted, a stopped one is started, and a unit the call did not start is
 * never stopped by it.
 */
class ApplyOnAPartlyRunningStackTest {
  private static final String LOCALDNS = "localdns.service";
  private static final String CONTAINERD = "containerd.service";
  private static final String KUBELET = "kubelet.service";
  private static final AgentConfig BLUE = SimNode.config(Map.of("example.com/pool", "blue"));
  private static final AgentConfig GREEN = SimNode.config(Map.of("example.com/pool", "green"));

  @Test
  void aRunningKubeletWhoseLabelsChangedIsRestartedWhileLocalDnsWasStopped() {
    SimNode lab = new SimNode();
    lab.bootstrap(BLUE);
    stop(lab, LOCALDNS);

    ApplyResult result = lab.node(GREEN).apply();

    assertThat(result.wasRunning()).isFalse();
    assertThat(result.restarted()).containsExactly(KUBELET);
    assertThat(result.started()).containsExactly(LOCALDNS);
    assertThat(result.running()).isTrue();
    assertThat(kubelet(lab).argv())
        .as("the kubelet that runs has the new labels")
        .anySatisfy(arg -> assertThat(arg).contains("example.com/pool=green"));
    assertThat(lab.stackActive()).isTrue();
    assertThat(lab.applied()).contains(GREEN);
  }

  @Test
  void aLocalDnsThatFailsToStartLeavesTheKubeletThatRanBeforeRunning() {
    SimNode lab = new SimNode();
    lab.bootstrap(BLUE);
    stop(lab, LOCALDNS);
    lab.host.systemd().setBehaviour(LOCALDNS, UnitBehaviour.failsToStart());
    long kubeletBefore = kubelet(lab).pid();

    UnitJobException failed =
        catchThrowableOfType(UnitJobException.class, () -> lab.node(BLUE).apply());

    assertThat(failed.unit()).isEqualTo(LOCALDNS);
    assertThat(lab.host.systemd().mainProcess(KUBELET).map(SimProcess::pid))
        .as("the kubelet that ran before the call still runs")
        .contains(kubeletBefore);
  }

  @Test
  void aContainerdThatFailsToStartLeavesTheKubeletThatRanBeforeRunning() {
    SimNode lab = new SimNode();
    lab.bootstrap(BLUE);
    stop(lab, CONTAINERD);
    lab.host.systemd().setBehaviour(CONTAINERD, UnitBehaviour.failsToStart());
    long kubeletBefore = kubelet(lab).pid();

    UnitJobException failed =
        catchThrowableOfType(UnitJobException.class, () -> lab.node(BLUE).apply());

    assertThat(failed.unit()).isEqualTo(CONTAINERD);
    assertThat(lab.host.systemd().mainProcess(KUBELET).map(SimProcess::pid))
        .as("the kubelet that ran before the call still runs")
        .contains(kubeletBefore);
  }

  @Test
  void aStoppedUnitWhoseConfigurationChangedIsStartedAndTheRunningOnesAreLeftAlone() {
    SimNode lab = new SimNode();
    lab.bootstrap(BLUE);
    stop(lab, KUBELET);
    long containerdBefore = mainPid(lab, CONTAINERD);
    long localDnsBefore = mainPid(lab, LOCALDNS);

    ApplyResult result = lab.node(GREEN).apply();

    assertThat(result.restarted()).isEmpty();
    assertThat(result.started()).containsExactly(KUBELET);
    assertThat(kubelet(lab).argv())
        .anySatisfy(arg -> assertThat(arg).contains("example.com/pool=green"));
    assertThat(mainPid(lab, CONTAINERD)).isEqualTo(containerdBefore);
    assertThat(mainPid(lab, LOCALDNS)).isEqualTo(localDnsBefore);
    assertThat(lab.applied()).contains(GREEN);
  }

  @Test
  void aRunningStackRestartsOnlyTheUnitWhoseConfigurationChanged() {
    SimNode lab = new SimNode();
    lab.bootstrap(BLUE);

    ApplyResult result = lab.node(GREEN).apply();

    assertThat(result.wasRunning()).isTrue();
    assertThat(result.restarted()).containsExactly(KUBELET);
    assertThat(result.started()).isEmpty();
  }

  @Test
  void aKubeletStoppedForAContainerdRestartThatFailedIsStartedAgain() {
    SimNode lab = new SimNode();
    Node node = lab.bootstrap(BLUE);
    lab.host.systemd().setBehaviour(CONTAINERD, UnitBehaviour.failsToStart());

    UnitJobException failed = catchThrowableOfType(
        UnitJobException.class, () -> node.start(true, new ConfigureResult(true, false, false)));

    assertThat(failed.unit()).isEqualTo(CONTAINERD);
    assertThat(lab.host.systemd().peek(KUBELET).isActive())
        .as("the kubelet that ran before the call runs again")
        .isTrue();
  }

  private static long mainPid(SimNode lab, String unit) {
    return lab.host.systemd().mainProcess(unit).orElseThrow().pid();
  }

  private static void stop(SimNode lab, String unit) {
    lab.host.systemd().stop(unit, Duration.ofSeconds(5));
  }

  private static SimProcess kubelet(SimNode lab) {
    return lab.host.systemd().mainProcess(KUBELET).orElseThrow();
  }
}
