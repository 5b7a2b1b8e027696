package dev.noneops.core.node;

import dev.noneops.ports.HostIOException;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent: the dummy link is added already up (one change), which
 * fails harmlessly when a dummy link of that name is there already (a link of another kind is
 * refused, never given the address); the address is assigned whether or not the link has it; a
 * link that was there is set up. Where the interface is missing (the upgrade's case, after host
 * networking was cleaned) that is two changes of the host. A failure of the host is the network port's {@link HostIOException}.
 */
final class LocalDnsNetwork {
  private static final Pattern INTERFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

  private final HostNetwork network;

  LocalDnsNetwork(HostNetwork network) {
    this.network = network;
  }

  void ensure(LocalDnsSpec dns) throws IOException {
    String ifName = requireInterfaceName(dns.interfaceName());
    boolean added = false;
    try {
      network.addUpDummyLink(ifName);
      added = true;
    } catch (HostIOException e) {
      Optional<NetworkLink> existing = network.link(ifName);
      if (existing.isEmpty()) {
        throw e;
      }
      if (!existing.get().isDummy()) {
        String kind = existing.get().kind();
        throw new NodeException(
            "a link named " + ifName + " exists and is "
                + (kind.isEmpty() ? "a physical interface" : "a " + kind + " link")
                + ", not a dummy interface; LocalDNS's address is not put on it (choose another LocalDNS.InterfaceName)");
      }
    }
    network.assignAddress(ifName, dns.bindAddress() + "/32");
    if (!added) {
      network.setUp(ifName);
    }
  }

  /** What {@link #remove} found and did. */
  enum Removal {
    /** A dummy interface of that name was deleted. */
    REMOVED,
    /** There is no link of that name. */
    ABSENT,
    /** A link of that name is not a dummy interface; it was left alone. */
    NOT_A_DUMMY
  }

  /**
   * Removes the interface if it is a dummy one: the link is read (whether it exists, and its
   * kind), then deleted. A link of another kind (a bridge, a physical NIC that happens to have the
   * name) is never touched.
   */
  Removal remove(String ifName) throws IOException {
    Optional<NetworkLink> link = network.link(requireInterfaceName(ifName));
    if (link.isEmpty()) {
      return Removal.ABSENT;
    }
    if (!link.get().isDummy()) {
      return Removal.NOT_A_DUMMY;
    }
    network.deleteLink(ifName);
    return Removal.REMOVED;
  }

  private static String requireInterfaceName(String ifName) {
    if (!INTERFACE.matcher(ifName).matches()) {
      throw new NodeException(
          "LocalDNS interface name is not a Linux interface name: '" + ifName + "'");
    }
    return ifName;
  }
}
