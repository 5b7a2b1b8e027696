package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * links as their state allows; only a dummy interface is ever given the address or removed.
 */
class LocalDnsNetworkTest {
  private final RecordingLinks links = new RecordingLinks();
  private final LocalDnsNetwork network = new LocalDnsNetwork(links);
  private final LocalDnsSpec dns = spec("localdns0");

  @Test
  void aMissingInterfaceIsCreatedUpThenAddressedInTwoChanges() throws Exception {
    network.ensure(dns);

    assertThat(links.calls)
        .containsExactly(
            "addUpDummyLink " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32");
    assertThat(links.links).containsOnlyKeys(dns.interfaceName());
  }

  @Test
  void anExistingInterfaceIsKeptAndItsAddressAssignedAgain() throws Exception {
    network.ensure(dns);
    links.calls.clear();

    network.ensure(dns);

    assertThat(links.calls)
        .containsExactly(
            "addUpDummyLink " + dns.interfaceName(),
            "link " + dns.interfaceName(),
            "assignAddress " + dns.interfaceName() + " " + dns.bindAddress() + "/32",
            "setUp " + dns.interfaceName());
  }

  @Test
  void aLinkOfTheNameThatIsNotADummyIsRefusedAndGetsNoAddress() {
    links.links.put(dns.interfaceName(), "bridge");

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
    links.links.put(dns.interfaceName(), "bridge");

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);

    assertThat(links.calls).containsExactly("link " + dns.interfaceName());
    assertThat(links.links).containsKey(dns.interfaceName());
  }

  @Test
  void aLinkWithoutAKindIsNeverDeleted() throws Exception {
    links.links.put(dns.interfaceName(), "");

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

  /** Links by name and kind ("" for a link without one, as a physical NIC), recording every call. */
  private static final class RecordingLinks implements HostNetwork {
    final List<String> calls = new ArrayList<>();
    final Map<String, String> links = new LinkedHashMap<>();
    boolean refuseAdd;

    @Override
    public List<Listener> listeners(int port) {
      return List.of();
    }

    boolean refuseDelete;

    @Override
    public Optional<NetworkLink> link(String name) {
      calls.add("link " + name);
      return Optional.ofNullable(links.get(name))
          .map(kind -> new NetworkLink(name, kind, false, List.of()));
    }

    @Override
    public void addDummyLink(String name) throws HostIOException {
      calls.add("addDummyLink " + name);
      if (refuseAdd) {
        throw new HostIOException(Errno.EOPNOTSUPP, "add dummy link", name);
      }
      if (links.putIfAbsent(name, NetworkLink.DUMMY) != null) {
        throw new HostIOException(Errno.EEXIST, "add dummy link", name);
      }
    }

    @Override
    public void addUpDummyLink(String name) throws HostIOException {
      calls.add("addUpDummyLink " + name);
      if (refuseAdd) {
        throw new HostIOException(Errno.EOPNOTSUPP, "add dummy link", name);
      }
      if (links.putIfAbsent(name, NetworkLink.DUMMY) != null) {
        throw new HostIOException(Errno.EEXIST, "add dummy link", name);
      }
    }

    @Override
    public void assignAddress(String link, String address) throws HostIOException {
      calls.add("assignAddress " + link + " " + address);
      existing("assign", link);
    }

    @Override
    public void setUp(String link) throws HostIOException {
      calls.add("setUp " + link);
      existing("set up link", link);
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

    private void existing(String operation, String name) throws HostIOException {
      if (!links.containsKey(name)) {
        throw new HostIOException(Errno.ENODEV, operation, name);
      }
    }
  }
}
