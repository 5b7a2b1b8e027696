package dev.noneops.testkit.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
  void aBootWhoseGateWroteNothingHasNoGateLine() {
    assertThat(RecoveryGateBoot.gateLine(
            "[    3.455019] vm systemd[1]: Finished noneops-recover.service - noneops recovery"
                + " gate: finish an interrupted node operation before the stack starts.\n"))
        .isEmpty();
  }
}
