package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.ports.network.NetworkLink;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A target that renamed LocalDNS's interface: a rollback at recovery, which knows only the applied
 * configuration, removes the target's interface too (from what the journal recorded), so one link
 * carries LocalDNS's address again; and it never removes a link of that name that is not a dummy.
 */
class LocalDnsInterfaceRollbackTest {
  private static final String ADDRESS = "169.254.20.10";
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2_RENAMED = SimNode.config(
      "1.31.3",
      "2.1.1",
      "green",
      "{ \"InterfaceName\": \"nodedns1\", \"BindAddress\": \"" + ADDRESS + "\" }");

  private SimNode lab;

  @BeforeEach
  void upgradedToTheRenamedInterfaceButNotPersisted() {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2_RENAMED);
    lab.node(V2_RENAMED, Optional.of(V1)).upgrade();
    assertThat(lab.host.kernel().link("nodedns1"))
        .as("the target set its interface up")
        .isPresent();
  }

  @Test
  void recoveryRollingBackRemovesTheTargetsRenamedInterface() {
    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(lab.host.kernel().link("nodedns1")).isEmpty();
    assertThat(linksCarrying(ADDRESS)).containsExactly("localdns0");
    assertThat(lab.host.kernel().link("localdns0").orElseThrow().up()).isTrue();
  }

  @Test
  void recoveryNeverRemovesALinkOfTheTargetsNameThatIsNotADummy() {
    lab.host.kernel().removeLink("nodedns1");
    lab.host.kernel().seedLink("nodedns1", "bridge");

    lab.node(V1).recoverUpgrade(V1);

    assertThat(lab.host.kernel().link("nodedns1")).map(NetworkLink::kind).contains("bridge");
    assertThat(linksCarrying(ADDRESS)).containsExactly("localdns0");
  }

  private List<String> linksCarrying(String address) {
    return lab.host.kernel().links().stream()
        .filter(l -> l.addresses().contains(address + "/32"))
        .map(NetworkLink::name)
        .toList();
  }
}
