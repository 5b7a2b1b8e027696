package dev.noneops.testkit.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.sandbox.UnitTimes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The gate's line is read from a boot's journal: the gate's own, not systemd's about its unit. */
class RecoveryGateBootTest {

  @Test
  void theGateLineIsTheGatesOwnOutputNotSystemdsLineAboutTheUnitWhoseDescriptionSharesItsPrefix() {
    String journal = """
        [    2.101230] vm systemd[1]: Starting noneops-recover.service - noneops recovery gate: \
        finish an interrupted node operation before the stack starts...
        [    3.402511] vm noneops[212]: noneops recovery gate: the interrupted upgrade to \
        1.31.6-9a62523d4cf0 was rolled back to 1.31.4-9a62523d4cf0
        [    3.455019] vm systemd[1]: Finished noneops-recover.service - noneops recovery gate: \
        finish an interrupted node operation before the stack starts.
        [    3.460377] vm systemd[1]: Starting localdns.service - LocalDNS...
        """;

    assertThat(RecoveryGateBoot.gateLine(journal))
        .isEqualTo("noneops recovery gate: the interrupted upgrade to 1.31.6-9a62523d4cf0 was"
            + " rolled back to 1.31.4-9a62523d4cf0");
  }

  @Test
  void systemdsLinesAboutTheGateAndTheStackAreReadInTheirOrderWithTheirTimes() {
    String journal = """
        [    2.101230] vm systemd[1]: Starting noneops-recover.service - noneops recovery gate: \
        finish an interrupted node operation before the stack starts...
        [    3.402511] vm noneops[212]: noneops recovery gate: nothing in flight
        [    3.455019] vm systemd[1]: Finished noneops-recover.service - noneops recovery gate: \
        finish an interrupted node operation before the stack starts.
        [    3.460377] vm systemd[1]: Starting localdns.service - LocalDNS...
        [    3.501377] vm systemd[1]: Started localdns.service - LocalDNS.
        [    3.560377] vm systemd[1]: Starting containerd.service - containerd...
        """;

    assertThat(RecoveryGateBoot.unitLines(
            journal, List.of("noneops-recover.service", "localdns.service", "containerd.service")))
        .containsExactly(
            "[    2.101230] Starting noneops-recover.service",
            "[    3.455019] Finished noneops-recover.service",
            "[    3.460377] Starting localdns.service",
            "[    3.501377] Started localdns.service",
            "[    3.560377] Starting containerd.service");
  }

  @Test
  void theJournalShowsTheGateFirstWhenItFinishedBeforeAnyStackUnitsFirstLineAStartedOneIncluded() {
    List<String> first = List.of(
        "[    2.101230] Starting noneops-recover.service",
        "[    3.455019] Finished noneops-recover.service",
        "[    3.460377] Starting localdns.service",
        "[    3.501377] Started localdns.service",
        "[    3.560377] Starting containerd.service",
        "[    3.601377] Started containerd.service",
        "[    3.658571] Started kubelet.service");
    List<String> kubeletBefore = List.of(
        "[    2.101230] Starting noneops-recover.service",
        "[    2.658571] Started kubelet.service",
        "[    3.455019] Finished noneops-recover.service",
        "[    3.460377] Starting localdns.service",
        "[    3.560377] Starting containerd.service");

    assertThat(boot(first).journalShowsTheGateFirst()).isTrue();
    assertThat(boot(kubeletBefore).journalShowsTheGateFirst()).isFalse();
    assertThat(boot(first.subList(0, 5)).journalShowsTheGateFirst())
        .as("kubelet never started")
        .isFalse();
  }

  private static RecoveryGateBoot boot(List<String> journal) {
    UnitTimes none = new UnitTimes(
        "noneops-recover.service", "", "", "", 0, 0, 0, Optional.empty(), Optional.empty());
    return new RecoveryGateBoot(none, List.of(), List.of(), "", journal);
  }

  @Test
  void aBootWhoseGateWroteNothingHasNoGateLine() {
    assertThat(RecoveryGateBoot.gateLine(
            "[    3.455019] vm systemd[1]: Finished noneops-recover.service - noneops recovery"
                + " gate: finish an interrupted node operation before the stack starts.\n"))
        .isEmpty();
  }
}
