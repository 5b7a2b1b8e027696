package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.network.NetworkLink;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.PortCall;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * The LocalDNS interface in an upgrade's switch-over (from the stop of the old stack on): when
 * the target wants the interface that is there (a dummy link of its name, up, holding exactly its
 * address), cleaning the host networking reads it and leaves it, and setting the host networking
 * up after the flip does not touch it either. A link that differs (another address besides, or
 * down) or a target that moves the address has it removed and made again, as the target wants
 * it; a renamed interface is made after the old one went. No link changes before the old stack
 * is stopped: writing the target's configuration does not touch the host networking.
 */
class LocalDnsInterfaceAcrossUpgradeTest {
  private static final String INTERFACE = "localdns0";
  private static final String ADDRESS = "169.254.20.10/32";
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");

  private final SimNode lab = new SimNode();

  @Test
  void anUnchangedInterfaceIsKeptAndOnlyReadOnce() {
    List<PortCall> calls = networkCallsOfTheSwitchOverTo(V2, lab -> {});

    assertThat(calls).extracting(PortCall::toString).containsExactly("network.link(localdns0)");
    assertThat(lab.host.kernel().link(INTERFACE))
        .contains(new NetworkLink(INTERFACE, NetworkLink.DUMMY, true, List.of(ADDRESS)));
  }

  @Test
  void aMovedAddressRemovesTheInterfaceAndMakesItAgain() {
    AgentConfig moved = withLocalDns(INTERFACE, "169.254.20.11");

    List<PortCall> calls = networkCallsOfTheSwitchOverTo(moved, lab -> {});

    assertThat(calls)
        .extracting(PortCall::toString)
        .containsExactly(
            "network.link(localdns0)",
            "network.deleteLink(localdns0) *",
            "network.addUpDummyLink(localdns0) *",
            "network.assignAddress(localdns0, 169.254.20.11/32) *");
    assertThat(lab.host.kernel().link(INTERFACE))
        .contains(new NetworkLink(INTERFACE, NetworkLink.DUMMY, true, List.of("169.254.20.11/32")));
  }

  @Test
  void aRenamedInterfaceIsMadeAfterTheOldOneWasRemoved() {
    AgentConfig renamed = withLocalDns("nodedns1", "169.254.20.10");

    List<PortCall> calls = networkCallsOfTheSwitchOverTo(renamed, lab -> {});

    assertThat(calls)
        .extracting(PortCall::toString)
        .containsExactly(
            "network.link(nodedns1)",
            "network.link(localdns0)",
            "network.deleteLink(localdns0) *",
            "network.addUpDummyLink(nodedns1) *",
            "network.assignAddress(nodedns1, 169.254.20.10/32) *");
    assertThat(lab.host.kernel().link(INTERFACE)).isEmpty();
    assertThat(lab.host.kernel().link("nodedns1"))
        .contains(new NetworkLink("nodedns1", NetworkLink.DUMMY, true, List.of(ADDRESS)));
  }

  @Test
  void aRenamedInterfaceTakesTheAddressOnlyAfterTheOldStackStoppedAndTheOldInterfaceWent() {
    AgentConfig renamed = withLocalDns("nodedns1", "169.254.20.10");
    lab.bootstrap(V1);
    lab.publish(renamed);
    long begin = lab.host.journal().calls().size();
    AtomicLong stopped = new AtomicLong(-1);

    lab.node(Params.builder(lab.host.ports()).config(renamed).previous(V1).events(e -> {
          if (e.task().equals("upgrade-stop-stack") && e.kind() == NodeEvent.Kind.STARTED) {
            stopped.set(lab.host.journal().calls().size());
          }
        }))
        .upgrade();

    List<PortCall> calls = networkCallsSince(begin);
    assertThat(
            mutating(calls.stream().filter(c -> c.sequence() <= stopped.get()).toList()))
        .as("no link changes while the old stack runs")
        .isEmpty();
    assertThat(mutating(calls))
        .as("the address leaves localdns0 before nodedns1 gets it")
        .containsExactly(
            "network.deleteLink(localdns0) *",
            "network.addUpDummyLink(nodedns1) *",
            "network.assignAddress(nodedns1, 169.254.20.10/32) *");
  }

  @Test
  void anInterfaceWithAnotherAddressBesidesIsMadeAgainWithOnlyItsOwn() {
    List<PortCall> calls = networkCallsOfTheSwitchOverTo(
        V2, lab -> lab.host.ports().network().assignAddress(INTERFACE, "10.9.9.9/32"));

    assertThat(calls)
        .extracting(PortCall::toString)
        .containsExactly(
            "network.link(localdns0)",
            "network.deleteLink(localdns0) *",
            "network.addUpDummyLink(localdns0) *",
            "network.assignAddress(localdns0, 169.254.20.10/32) *");
    assertThat(lab.host.kernel().link(INTERFACE))
        .contains(new NetworkLink(INTERFACE, NetworkLink.DUMMY, true, List.of(ADDRESS)));
  }

  @Test
  void anInterfaceThatIsDownIsMadeAgainUp() {
    List<PortCall> calls = networkCallsOfTheSwitchOverTo(V2, lab -> {
      lab.host.kernel().removeLink(INTERFACE);
      lab.host.kernel().seedLink(INTERFACE, NetworkLink.DUMMY);
      lab.host.ports().network().assignAddress(INTERFACE, ADDRESS);
    });

    assertThat(calls)
        .extracting(PortCall::toString)
        .containsExactly(
            "network.link(localdns0)",
            "network.deleteLink(localdns0) *",
            "network.addUpDummyLink(localdns0) *",
            "network.assignAddress(localdns0, 169.254.20.10/32) *");
    assertThat(lab.host.kernel().link(INTERFACE))
        .contains(new NetworkLink(INTERFACE, NetworkLink.DUMMY, true, List.of(ADDRESS)));
  }

  @Test
  void anUpgradeThatRollsBackKeepsTheUnchangedInterfaceToo() {
    lab.bootstrap(V1);
    lab.publish(V2);
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    long before = lab.host.journal().calls().size();

    try {
      lab.node(V2, Optional.of(V1)).upgrade();
      throw new AssertionError("the upgrade to a kubelet that never gets ready succeeded");
    } catch (UpgradeFailedException expected) {
      // rolled back to V1, whose interface is the same
    }

    assertThat(mutating(networkCallsSince(before))).isEmpty();
    assertThat(lab.host.kernel().link(INTERFACE))
        .contains(new NetworkLink(INTERFACE, NetworkLink.DUMMY, true, List.of(ADDRESS)));
  }

  private static AgentConfig withLocalDns(String interfaceName, String address) {
    return SimNode.config(
        "1.31.3",
        "2.1.1",
        "green",
        "{ \"InterfaceName\": \"" + interfaceName + "\", \"BindAddress\": \"" + address + "\" }");
  }

  /**
   * The network port's calls of the switch-over of an upgrade from V1 to {@code target} (from
   * the stop of the old stack on), {@code arrange}d first.
   */
  private List<PortCall> networkCallsOfTheSwitchOverTo(
      AgentConfig target, ThrowingConsumer<SimNode> arrange) {
    lab.bootstrap(V1);
    lab.publish(target);
    try {
      arrange.accept(lab);
    } catch (Throwable e) {
      throw new AssertionError("could not arrange the host", e);
    }
    AtomicLong stopped = new AtomicLong(-1);
    lab.node(Params.builder(lab.host.ports()).config(target).previous(V1).events(e -> {
          if (e.task().equals("upgrade-stop-stack") && e.kind() == NodeEvent.Kind.STARTED) {
            stopped.set(lab.host.journal().calls().size());
          }
        }))
        .upgrade();
    assertThat(stopped.get()).as("the upgrade stopped the old stack").isNotNegative();
    return networkCallsSince(stopped.get());
  }

  private List<PortCall> networkCallsSince(long index) {
    return lab.host.journal().calls().stream()
        .skip(index)
        .filter(c -> c.port().equals("network") && !c.method().equals("listeners"))
        .toList();
  }

  private static List<String> mutating(List<PortCall> calls) {
    return calls.stream().filter(PortCall::mutating).map(PortCall::toString).toList();
  }
}
