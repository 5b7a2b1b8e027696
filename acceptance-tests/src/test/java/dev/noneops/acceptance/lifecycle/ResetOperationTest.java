package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.Node.ResetResult;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.node.SimulatedNode;
import java.nio.file.Path;
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

  /**
   * The pods' bridge is a link of the node's: the CNI bridge plugin made it for the node's pods,
   * from the configuration in {@code /etc/cni/net.d}. A bridge the configuration does not name
   * (another runtime's) and a link of a named bridge's name that is no bridge stay.
   */
  @Test
  void resetRemovesTheBridgesTheNodesCniConfigurationNamesAndNoOtherLink() throws Exception {
    SimulatedNode lab = new SimulatedNode();
    lab.bootstrap(SimulatedNode.config());
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "nopods0", "ipam": {"type": "host-local"}},
          {"type": "portmap"}]}
        """, 0644);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/20-default.conf"), """
        {"cniVersion": "0.4.0", "name": "default", "type": "bridge"}
        """, 0644);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/30-other.conflist"), """
        {"cniVersion": "0.4.0", "name": "other", "plugins": [
          {"type": "bridge", "bridge": "notabridge0"}]}
        """, 0644);
    lab.host.kernel().seedLink("nopods0", "bridge");
    lab.host.kernel().seedLink("cni0", "bridge");
    lab.host.kernel().seedLink("docker0", "bridge");
    lab.host.kernel().seedLink("notabridge0", "dummy");

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup())
        .containsExactly("LocalDNS interface localdns0", "CNI bridge cni0", "CNI bridge nopods0");
    assertThat(lab.host.kernel().link("nopods0")).isEmpty();
    assertThat(lab.host.kernel().link("cni0")).isEmpty();
    assertThat(lab.host.kernel().link("docker0"))
        .as("a bridge no CNI configuration names")
        .isPresent();
    assertThat(lab.host.kernel().link("notabridge0")).as("named, but no bridge").isPresent();
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
