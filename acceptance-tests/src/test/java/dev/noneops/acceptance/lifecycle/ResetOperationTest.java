package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.Node.ResetResult;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.node.SimulatedNode;
import org.junit.jupiter.api.Test;

/** {@code Node.reset()}: the reset an operator's CLI and an embedding agent share, needing no configuration. */
class ResetOperationTest {

  @Test
  void resetRemovesTheNodeItsLocalDnsInterfaceAndTheAppliedConfiguration() {
    SimulatedNode lab = new SimulatedNode();
    lab.bootstrap(SimulatedNode.config());

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.wasPresent()).isTrue();
    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(reset.hostCleanup()).containsExactly("LocalDNS interface localdns0");
    assertThat(lab.host.kernel().link("localdns0")).isEmpty();
    assertThat(lab.applied()).isEmpty();
    assertThat(lab.exists(lab.layout.root())).isFalse();
    assertThat(lab.stackActive()).isFalse();
  }

  @Test
  void resetOnAHostWithoutANodeChangesNothing() {
    SimulatedNode lab = new SimulatedNode();
    FileTreeSnapshot before = lab.host.snapshot();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.wasPresent()).isFalse();
    assertThat(reset.complete()).isTrue();
    assertThat(reset.hostCleanup()).isEmpty();
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }
}
