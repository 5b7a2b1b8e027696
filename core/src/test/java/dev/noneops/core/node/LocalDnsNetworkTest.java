package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.node.internal.render.LocalDnsNetwork;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.network.NetworkLink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The LocalDNS interface is set up and removed idempotently, in as few changes to the host's
 * links as their state allows; only a dummy interface is ever given the address or removed, and
 * one that is exactly as wanted can be kept.
 */
class LocalDnsNetworkTest {
  private final RecordingLinks links = new RecordingLinks();
  private final LocalDnsNetwork network = new LocalDnsNetwork(links);
  private final LocalDnsSpec dns = spec("localdns0");

  @Test
  void aMissingInterfaceIsReadThenCreatedUpAndAddressedInTwoChanges() throws Exception {
    network.ensure(dns);

    assertThat(links.calls)
        .containsExactly(
            "link " + dns.interfaceName(),
            "addUpDummyLink " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32");
    assertThat(links.links)
        .containsExactly(Map.entry(
            dns.interfaceName(),
            new NetworkLink(
                dns.interfaceName(), NetworkLink.DUMMY, true, List.of(dns.bindAddress() + "/32"))));
  }

  @Test
  void anInterfaceThatIsAsWantedIsOnlyRead() throws Exception {
    network.ensure(dns);
    links.calls.clear();

    network.ensure(dns);

    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
  }

  @Test
  void anExistingInterfaceWithoutTheAddressIsGivenItAndOneThatIsDownIsSetUp() throws Exception {
    links.seed(dns.interfaceName(), NetworkLink.DUMMY, false, "10.9.9.9/32");

    network.ensure(dns);

    assertThat(links.calls)
        .containsExactly(
            "link " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32",
            "setUp " + dns.interfaceName());
    assertThat(links.links.get(dns.interfaceName()).up()).isTrue();
  }

  @Test
  void anInterfaceKnownToBeMissingIsCreatedWithoutBeingReadFirst() throws Exception {
    network.create(dns);

    assertThat(links.calls)
        .containsExactly(
            "addUpDummyLink " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32");
  }

  @Test
  void anInterfaceThoughtMissingButThereIsReadAndCompleted() throws Exception {
    links.seed(dns.interfaceName(), NetworkLink.DUMMY, false);

    network.create(dns);

    assertThat(links.calls)
        .containsExactly(
            "addUpDummyLink " + dns.interfaceName(),
            "link " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32",
            "setUp " + dns.interfaceName());
  }

  @Test
  void aLinkOfAnotherKindThoughtMissingIsRefusedAndGetsNoAddress() {
    links.seed(dns.interfaceName(), "bridge", false);

    assertThatThrownBy(() -> network.create(dns))
        .isInstanceOf(NodeException.class)
        .hasMessageContaining("bridge");
    assertThat(links.calls).noneMatch(c -> c.startsWith("assignAddress") || c.startsWith("setUp"));
  }

  @Test
  void aLinkOfTheNameThatIsNotADummyIsRefusedAndGetsNoAddress() {
    links.seed(dns.interfaceName(), "bridge", false);

    assertThatThrownBy(() -> network.ensure(dns))
        .isInstanceOf(NodeException.class)
        .hasMessageContaining(dns.interfaceName())
        .hasMessageContaining("bridge");
    assertThat(links.calls).noneMatch(c -> c.startsWith("assignAddress") || c.startsWith("setUp"));
  }

  @Test
  void anInterfaceThatCannotBeCreatedIsTheHostsErrorNamingIt() {
    links.refuseAdd = true;

    assertThatThrownBy(() -> network.ensure(dns))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP))
        .hasMessageContaining(dns.interfaceName());
    assertThat(links.calls).noneMatch(c -> c.startsWith("assignAddress") || c.startsWith("setUp"));
  }

  @Test
  void anInterfaceNameLinuxWouldRejectIsRefusedBeforeTheHostIsAsked() {
    LocalDnsSpec bad = spec("name with spaces");

    assertThatThrownBy(() -> network.ensure(bad))
        .isInstanceOf(NodeException.class)
        .hasMessageContaining("'name with spaces'");
    assertThat(links.calls).isEmpty();
  }

  @Test
  void removingAPresentDummyInterfaceReadsItThenDeletesIt() throws Exception {
    network.ensure(dns);
    links.calls.clear();

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.REMOVED);

    assertThat(links.calls)
        .containsExactly("link " + dns.interfaceName(), "deleteLink " + dns.interfaceName());
    assertThat(links.links).isEmpty();
  }

  @Test
  void removingAnAbsentInterfaceSucceeds() throws Exception {
    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.ABSENT);

    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
  }

  @Test
  void aLinkOfTheNameThatIsNotADummyIsNeverDeleted() throws Exception {
    links.seed(dns.interfaceName(), "bridge", false);

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);

    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
    assertThat(links.links).containsKey(dns.interfaceName());
  }

  @Test
  void aLinkWithoutAKindIsNeverDeleted() throws Exception {
    links.seed(dns.interfaceName(), "", false);

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);
    assertThat(links.links).containsKey(dns.interfaceName());
  }

  @Test
  void anInterfaceThatCannotBeDeletedIsTheHostsError() throws Exception {
    network.ensure(dns);
    links.refuseDelete = true;

    assertThatThrownBy(() -> network.remove(dns.interfaceName()))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPERM))
        .hasMessageContaining(dns.interfaceName());
    assertThat(links.links).containsKey(dns.interfaceName());
  }

  @Test
  void anInterfaceExactlyAsWantedIsKeptAfterOneRead() throws Exception {
    network.ensure(dns);
    links.calls.clear();

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.KEPT);

    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
    assertThat(links.links).containsKey(dns.interfaceName());
  }

  @Test
  void theIpv6LinkLocalAddressTheKernelGivesAnUpLinkDoesNotCountAsAnotherAddress()
      throws Exception {
    links.seed(
        dns.interfaceName(),
        NetworkLink.DUMMY,
        true,
        dns.bindAddress() + "/32",
        "fe80::2095:66ff:fe67:6400/64");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.KEPT);
  }

  @Test
  void anInterfaceWithAnotherAddressBesidesIsRemoved() throws Exception {
    links.seed(
        dns.interfaceName(), NetworkLink.DUMMY, true, dns.bindAddress() + "/32", "10.9.9.9/32");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.REMOVED);
    assertThat(links.links).isEmpty();
  }

  @Test
  void anInterfaceWithAnotherIpv6AddressBesidesIsRemoved() throws Exception {
    links.seed(
        dns.interfaceName(), NetworkLink.DUMMY, true, dns.bindAddress() + "/32", "fd00::1/128");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.REMOVED);
  }

  @Test
  void anInterfaceWithTheAddressUnderAnotherPrefixIsRemoved() throws Exception {
    links.seed(dns.interfaceName(), NetworkLink.DUMMY, true, dns.bindAddress() + "/24");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.REMOVED);
  }

  @Test
  void anInterfaceWithoutItsAddressIsRemoved() throws Exception {
    links.seed(dns.interfaceName(), NetworkLink.DUMMY, true);

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.REMOVED);
  }

  @Test
  void anInterfaceThatIsDownIsRemoved() throws Exception {
    links.seed(dns.interfaceName(), NetworkLink.DUMMY, false, dns.bindAddress() + "/32");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.REMOVED);
  }

  @Test
  void aLinkOfAnotherKindHoldingExactlyTheAddressIsNeitherKeptAsLocalDnsNorTouched()
      throws Exception {
    links.seed(dns.interfaceName(), "bridge", true, dns.bindAddress() + "/32");

    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);
    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
  }

  @Test
  void keepingAnAbsentInterfaceFindsItAbsent() throws Exception {
    assertThat(network.keepOrRemove(wanted(dns))).isEqualTo(LocalDnsNetwork.Removal.ABSENT);
  }

  private static LocalDnsInterface wanted(LocalDnsSpec spec) {
    return new LocalDnsInterface(spec.interfaceName(), spec.bindAddress());
  }

  private static LocalDnsSpec spec(String interfaceName) {
    return new LocalDnsSpec(
        "/opt/unbounded/node/current/bin/coredns",
        interfaceName,
        "169.254.20.10",
        53,
        "cluster.local",
        "10.0.0.10",
        List.of("1.1.1.1"));
  }

  /** Links by name with their kind ("" for a link without one, as a physical NIC), state and addresses, recording every call. */
  private static final class RecordingLinks implements HostNetwork {
    final List<String> calls = new ArrayList<>();
    final Map<String, NetworkLink> links = new LinkedHashMap<>();
    boolean refuseAdd;
    boolean refuseDelete;

    /** A link that is there before the test, made without a call. */
    void seed(String name, String kind, boolean up, String... addresses) {
      links.put(name, new NetworkLink(name, kind, up, List.of(addresses)));
    }

    @Override
    public List<Listener> listeners(int port) {
      return List.of();
    }

    @Override
    public List<String> linkNames() {
      calls.add("linkNames");
      return links.keySet().stream().sorted().toList();
    }

    @Override
    public Optional<NetworkLink> link(String name) {
      calls.add("link " + name);
      return Optional.ofNullable(links.get(name));
    }

    @Override
    public void addDummyLink(String name) throws HostIOException {
      calls.add("addDummyLink " + name);
      add(name, false);
    }

    @Override
    public void addUpDummyLink(String name) throws HostIOException {
      calls.add("addUpDummyLink " + name);
      add(name, true);
    }

    private void add(String name, boolean up) throws HostIOException {
      if (refuseAdd) {
        throw new HostIOException(Errno.EOPNOTSUPP, "add dummy link", name);
      }
      if (links.containsKey(name)) {
        throw new HostIOException(Errno.EEXIST, "add dummy link", name);
      }
      seed(name, NetworkLink.DUMMY, up);
    }

    @Override
    public void assignAddress(String link, String address) throws HostIOException {
      calls.add("assignAddress " + link + " " + address);
      NetworkLink l = existing("assign", link);
      List<String> addresses = new ArrayList<>(l.addresses());
      if (!addresses.contains(address)) {
        addresses.add(address);
      }
      links.put(link, new NetworkLink(link, l.kind(), l.up(), addresses));
    }

    @Override
    public void setUp(String link) throws HostIOException {
      calls.add("setUp " + link);
      NetworkLink l = existing("set up link", link);
      links.put(link, new NetworkLink(link, l.kind(), true, l.addresses()));
    }

    @Override
    public void deleteLink(String name) throws HostIOException {
      calls.add("deleteLink " + name);
      if (refuseDelete) {
        throw new HostIOException(Errno.EPERM, "delete link", name);
      }
      existing("delete link", name);
      links.remove(name);
    }

    private NetworkLink existing(String operation, String name) throws HostIOException {
      NetworkLink l = links.get(name);
      if (l == null) {
        throw new HostIOException(Errno.ENODEV, operation, name);
      }
      return l;
    }
  }
}
