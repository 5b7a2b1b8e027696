package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.upgrade.RecoveryResult;
import dev.noneops.ports.commands.Command;
import dev.noneops.testkit.commands.SimKernel;
import dev.noneops.testkit.node.SimulatedNode;
import java.time.Duration;
import java.util.ArrayList;
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
  private static final AgentConfig V1 = SimulatedNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2_RENAMED = SimulatedNode.config("1.31.3", "2.1.1", "green",
      "{ \"InterfaceName\": \"nodedns1\", \"BindAddress\": \"" + ADDRESS + "\" }");

  private SimulatedNode lab;

  @BeforeEach
  void upgradedToTheRenamedInterfaceButNotPersisted() {
    lab = new SimulatedNode();
    lab.bootstrap(V1);
    lab.publish(V2_RENAMED);
    lab.node(V2_RENAMED, Optional.of(V1)).upgrade();
    assertThat(lab.host.kernel().link("nodedns1")).as("the target set its interface up").isPresent();
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
  void recoveryNeverRemovesALinkOfTheTargetsNameThatIsNotADummy() throws Exception {
    ip("link", "delete", "dev", "nodedns1");
    ip("link", "add", "nodedns1", "type", "bridge");

    lab.node(V1).recoverUpgrade(V1);

    assertThat(lab.host.kernel().link("nodedns1")).map(SimKernel.Link::kind).contains("bridge");
    assertThat(linksCarrying(ADDRESS)).containsExactly("localdns0");
  }

  private void ip(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("ip"));
    argv.addAll(List.of(args));
    assertThat(lab.host.ports().commands().run(Command.of(Duration.ofSeconds(5), argv.toArray(String[]::new))).succeeded()).isTrue();
  }

  private List<String> linksCarrying(String address) {
    return lab.host.kernel().links().stream().filter(l -> l.addresses().contains(address + "/32")).map(SimKernel.Link::name).toList();
  }
}
