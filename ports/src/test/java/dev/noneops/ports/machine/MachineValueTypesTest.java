package dev.noneops.ports.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Machine's value types are immutable, refuse what no API server holds and map its words. */
class MachineValueTypesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

  @Test
  void aMachineNameIsADnsSubdomain() {
    assertThat(MachineNames.check("node-1.example")).isEqualTo("node-1.example");
    assertThatThrownBy(() -> MachineNames.check("Node_1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Node_1'");
    assertThatThrownBy(() -> MachineNames.check("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MachineNames.check("a".repeat(254)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MachineNames.check("-a")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void phasesMapToTheWordsOfTheObjectAndAnUnknownWordIsOther() {
    assertThat(MachinePhase.fromWord("Provisioning")).isEqualTo(MachinePhase.PROVISIONING);
    assertThat(MachinePhase.FAILED.word()).isEqualTo("Failed");
    assertThat(MachinePhase.fromWord("")).isEqualTo(MachinePhase.UNSET);
    assertThat(MachinePhase.fromWord(null)).isEqualTo(MachinePhase.UNSET);
    assertThat(MachinePhase.fromWord("Draining")).isEqualTo(MachinePhase.OTHER);
    assertThat(MachineCondition.Status.fromWord("True")).isEqualTo(MachineCondition.Status.TRUE);
    assertThat(MachineCondition.Status.fromWord("maybe"))
        .isEqualTo(MachineCondition.Status.UNKNOWN);
  }

  @Test
  void aConditionKeepsItsTransitionTimeUntilItsStatusChanges() {
    MachineStatus pending = MachineStatus.EMPTY.withCondition(
        new MachineCondition("Repaved", MachineCondition.Status.FALSE, "Pending", "repaving", T0));

    MachineStatus stillPending = pending.withCondition(
        new MachineCondition("Repaved", MachineCondition.Status.FALSE, "Pending", "draining", T1));
    MachineStatus done = pending.withCondition(
        new MachineCondition("Repaved", MachineCondition.Status.TRUE, "Succeeded", "", T1));

    assertThat(stillPending.conditions()).hasSize(1);
    assertThat(stillPending.condition("Repaved").orElseThrow().lastTransitionTime())
        .isEqualTo(T0);
    assertThat(stillPending.condition("Repaved").orElseThrow().message()).isEqualTo("draining");
    assertThat(done.condition("Repaved").orElseThrow().lastTransitionTime()).isEqualTo(T1);
    assertThat(done.condition("Ready")).isEmpty();
  }

  @Test
  void valuesAreCopiedSoTheCallerCannotChangeThemLater() {
    Map<String, String> labels = new HashMap<>(Map.of("zone", "a"));
    KubernetesSpec spec = new KubernetesSpec("1.31.4", labels, List.of(), "");
    labels.put("zone", "b");

    assertThat(spec.nodeLabels()).containsEntry("zone", "a");
    assertThatThrownBy(() -> spec.nodeLabels().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void countersAreNeverNegativeAndConditionsAreOnePerType() {
    assertThatThrownBy(() -> new MachineOperations(-1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    MachineCondition c = new MachineCondition("Repaved", MachineCondition.Status.TRUE, "", "", T0);
    assertThatThrownBy(
            () -> new MachineStatus(MachinePhase.READY, MachineOperations.NONE, List.of(c, c)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRefusalIsFoundByItsKindThroughWrappers() {
    MachineResourceException e = new MachineResourceException(
        MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE, "node-1", "no Machine CRD");

    assertThat(MachineResourceException.hasKind(
            new IllegalStateException(e), MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE))
        .isTrue();
    assertThat(MachineResourceException.hasKind(e, MachineResourceException.Kind.CONFLICT))
        .isFalse();
    assertThat(e.machine()).isEqualTo("node-1");
  }
}
