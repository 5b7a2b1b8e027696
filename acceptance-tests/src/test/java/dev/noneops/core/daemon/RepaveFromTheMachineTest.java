package dev.noneops.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.daemon.RepaveReconciler.Outcome;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.testkit.machine.SimulatedMachineApi;
import dev.noneops.testkit.node.SimulatedNode;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node repaved in place when its Machine's repave counter is raised: a new version is upgraded
 * to and committed, labels alone are applied, a target that rolls back is reported Failed and not
 * retried, an invalid spec changes nothing on the host.
 */
class RepaveFromTheMachineTest {
  private static final AgentConfig V1 = SimulatedNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimulatedNode.config("1.31.5", "", "blue");
  private static final AgentConfig V1_GREEN = SimulatedNode.config("1.31.4", "", "green");

  private final SimulatedMachineApi api = SimulatedMachineApi.createWithDelivery(Runnable::run);
  private SimulatedNode lab;
  private RepaveReconciler reconciler;

  @BeforeEach
  void aRegisteredNodeOnV1() {
    lab = new SimulatedNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    new MachineRegistration(api.client()).register(V1);
    reconciler = new RepaveReconciler(
        lab.host.ports(),
        lab.paths,
        (config, previous) -> lab.node(config.orElseThrow(), previous),
        api.client(),
        V1.machineName(),
        "amd64");
  }

  @Test
  void aRaisedCounterWithANewVersionUpgradesCommitsAndReportsJoining() {
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.applied()).contains(V2);
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(MachineCondition.Status.TRUE);
      assertThat(c.reason()).isEqualTo("Succeeded");
    });
    assertThat(reconciler.reconcile())
        .as("the counter is acknowledged")
        .isEqualTo(Outcome.NOTHING_TO_DO);
  }

  @Test
  void newLabelsOnTheSameVersionAreAppliedWithoutAnUpgrade() {
    askRepave(
        1,
        k -> new KubernetesSpec(
            "",
            Map.of("example.com/pool", "green"),
            k.registerWithTaints(),
            k.bootstrapTokenRef()));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.REPAVED);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.applied()).contains(V1_GREEN);
  }

  @Test
  void aTargetThatRollsBackIsReportedFailedAndNotRetried() {
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    askRepave(1, k -> k.withVersion("1.31.5"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.ROLLED_BACK);

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED)).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(MachineCondition.Status.FALSE);
      assertThat(c.reason()).isEqualTo("RolledBack");
      assertThat(c.message()).isNotEmpty();
    });
    long callsBefore = lab.host.journal().calls().size();
    assertThat(reconciler.reconcile()).isEqualTo(Outcome.NOTHING_TO_DO);
    assertThat(lab.host.journal().calls().size())
        .as("no retry until the counter is raised again")
        .isEqualTo(callsBefore);
  }

  @Test
  void anInvalidSpecIsReportedWithItsViolationsAndChangesNothingOnTheHost() {
    Map<String, String> before = lab.sharedFiles();
    askRepave(1, k -> k.withVersion("not-a-version"));

    assertThat(reconciler.reconcile()).isEqualTo(Outcome.INVALID_SPEC);

    assertThat(lab.sharedFiles()).isEqualTo(before);
    MachineStatus status = status();
    assertThat(status.phase()).isEqualTo(MachinePhase.FAILED);
    assertThat(status.operations().repaveCounter()).isEqualTo(1);
    assertThat(status.condition(MachineCondition.REPAVED).orElseThrow().message())
        .contains("not-a-version");
  }

  private void askRepave(long counter, UnaryOperator<KubernetesSpec> change) {
    api.updateSpec(
        V1.machineName(),
        s -> s.withKubernetes(change.apply(s.kubernetes()))
            .withOperations(s.operations().withRepaveCounter(counter)));
  }

  private MachineStatus status() {
    return api.machine(V1.machineName()).orElseThrow().status();
  }
}
