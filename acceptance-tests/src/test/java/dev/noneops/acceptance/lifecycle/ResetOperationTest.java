package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.Params;
import dev.noneops.core.node.ResetResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code Node.reset()}: the reset an operator's CLI and an embedding agent share, needing no configuration. */
class ResetOperationTest {

  @Test
  void resetRemovesTheNodeItsLocalDnsInterfaceAndTheAppliedConfiguration() {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config());

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
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config());
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

  /**
   * A network configuration that was in {@code /etc/cni/net.d} before the node came is another
   * runtime's: the bridge it names is that runtime's, however the node's own configuration names
   * its bridge, and stays with the file.
   */
  @Test
  void resetLeavesTheBridgeOfACniConfigurationFromBeforeTheNode() throws Exception {
    SimNode lab = new SimNode();
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/90-foreign.conflist"), """
        {"cniVersion": "0.4.0", "name": "foreign-net", "plugins": [
          {"type": "bridge", "bridge": "forbr0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("forbr0", "bridge");
    lab.bootstrap(SimNode.config());
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "nopods0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("nopods0", "bridge");

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup())
        .containsExactly("LocalDNS interface localdns0", "CNI bridge nopods0");
    assertThat(lab.host.kernel().link("forbr0"))
        .as("the bridge of a configuration from before the node")
        .isPresent();
    assertThat(lab.exists(Path.of("/etc/cni/net.d/90-foreign.conflist"))).isTrue();
  }

  /**
   * A bridge that was on the host before the node came is the host's, even when the node's own
   * CNI configuration, written after the node came, names it (an operator's {@code cni0}, say):
   * the bridge plugin found it and used it, and reset leaves it.
   */
  @Test
  void resetLeavesABridgeFromBeforeTheNodeThatTheNodesCniConfigurationNames() throws Exception {
    SimNode lab = new SimNode();
    lab.host.kernel().seedLink("cni0", "bridge");
    lab.bootstrap(SimNode.config());
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "cni0", "ipam": {"type": "host-local"}},
          {"type": "bridge", "bridge": "nopods0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("nopods0", "bridge");

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup())
        .containsExactly("LocalDNS interface localdns0", "CNI bridge nopods0");
    assertThat(lab.host.kernel().link("cni0"))
        .as("the bridge that was there before the node")
        .isPresent();
    assertThat(lab.host.kernel().link("nopods0")).isEmpty();
  }

  /**
   * A node provisioned before the links were recorded (its CNI entries were) has no record of the
   * host's links, and its stack may have made its bridges since: a provision run again does not
   * take the links it finds for the host's, and reset removes the bridges its configuration names
   * as it did before the record existed.
   */
  @Test
  void aNodeProvisionedBeforeLinksWereRecordedRemovesTheBridgesItsConfigurationNamesAsBefore()
      throws Exception {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config());
    lab.host.fs().delete(lab.layout.linksBefore());
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "cni0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("cni0", "bridge");
    lab.bootstrap(SimNode.config());
    assertThat(lab.exists(lab.layout.linksBefore()))
        .as("no record taken once the node's stack may have run")
        .isFalse();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup())
        .containsExactly("LocalDNS interface localdns0", "CNI bridge cni0");
    assertThat(lab.host.kernel().link("cni0")).isEmpty();
  }

  /** An unreadable record of the links keeps every named bridge, and the reset says why. */
  @Test
  void anUnreadableRecordOfTheLinksKeepsEveryNamedBridgeAndFailsTheReset() throws Exception {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config());
    lab.host.fs().seedFile(lab.layout.linksBefore(), "{\"format\": 1, \"links\": [\"a/b\"]}", 0600);
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "nopods0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("nopods0", "bridge");

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup()).containsExactly("LocalDNS interface localdns0");
    assertThat(lab.host.kernel().link("nopods0")).isPresent();
    assertThat(reset.complete()).isFalse();
    assertThat(reset.report().blocking()).singleElement().satisfies(k -> {
      assertThat(k.subject()).isEqualTo("link nopods0");
      assertThat(k.detail()).contains(lab.layout.linksBefore().toString());
    });
  }

  /**
   * A node provisioned before the CNI entries were recorded cannot tell its configurations from
   * another runtime's: reset removes no bridge rather than guess (and says nothing removed).
   */
  @Test
  void resetRemovesNoBridgeWhenTheCniEntriesFromBeforeTheNodeWereNeverRecorded() throws Exception {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config());
    lab.host.fs().delete(lab.layout.cniBefore());
    lab.host.fs().createDirectories(Path.of("/etc/cni/net.d"), 0755);
    lab.host.fs().seedFile(Path.of("/etc/cni/net.d/10-pods.conflist"), """
        {"cniVersion": "0.4.0", "name": "pods", "plugins": [
          {"type": "bridge", "bridge": "nopods0", "ipam": {"type": "host-local"}}]}
        """, 0644);
    lab.host.kernel().seedLink("nopods0", "bridge");

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.hostCleanup()).containsExactly("LocalDNS interface localdns0");
    assertThat(lab.host.kernel().link("nopods0")).isPresent();
  }

  @Test
  void resetOnAHostWithoutANodeChangesNothing() {
    SimNode lab = new SimNode();
    FileTreeSnapshot before = lab.host.snapshot();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.wasPresent()).isFalse();
    assertThat(reset.complete()).isTrue();
    assertThat(reset.hostCleanup()).isEmpty();
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }
}
