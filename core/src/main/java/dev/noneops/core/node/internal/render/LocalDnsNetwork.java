package dev.noneops.core.node.internal.render;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.internal.state.UpgradeRecord.LocalDnsInterface;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent, in as few changes of the host's links (each an {@code
 * ip} process in production) as what is known about the link allows: {@link #ensure} reads the
 * link first and changes only what differs (nothing when it is as wanted, the usual case of a
 * configuration written on a running node); {@link #create}, for an interface known to be
 * missing (an upgrade's, after host networking was cleaned), adds it already up and assigns the
 * address, two changes. A link of another kind is refused, never given the address. A failure of
 * the host is the network port's {@link HostIOException}.
 */
public final class LocalDnsNetwork {
  private static final Pattern INTERFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

  private final HostNetwork network;

  public LocalDnsNetwork(HostNetwork network) {
    this.network = network;
  }

  /** Sets the interface up as {@code dns} wants it, reading the link first. */
  public void ensure(LocalDnsSpec dns) throws IOException {
    String ifName = requireInterfaceName(dns.interfaceName());
    Optional<NetworkLink> existing = network.link(ifName);
    if (existing.isEmpty()) {
      create(dns);
    } else {
      complete(existing.get(), dns);
    }
  }

  /**
   * Sets up an interface that is known to be missing: the dummy link is added already up (one
   * change), then given the address. When a link of that name is there after all, it is read and
   * completed as {@link #ensure} does.
   */
  public void create(LocalDnsSpec dns) throws IOException {
    String ifName = requireInterfaceName(dns.interfaceName());
    try {
      network.addUpDummyLink(ifName);
    } catch (HostIOException e) {
      Optional<NetworkLink> existing = network.link(ifName);
      if (existing.isEmpty()) {
        throw e;
      }
      complete(existing.get(), dns);
      return;
    }
    network.assignAddress(ifName, address(dns.bindAddress()));
  }

  /** Gives an existing dummy link the address and brings it up, each only when it lacks it. */
  private void complete(NetworkLink link, LocalDnsSpec dns) throws IOException {
    if (!link.isDummy()) {
      String kind = link.kind();
      throw new NodeException(
          "a link named " + link.name() + " exists and is "
              + (kind.isEmpty() ? "a physical interface" : "a " + kind + " link")
              + ", not a dummy interface; LocalDNS's address is not put on it (choose another LocalDNS.InterfaceName)");
    }
    String address = address(dns.bindAddress());
    if (!link.addresses().contains(address)) {
      network.assignAddress(link.name(), address);
    }
    if (!link.up()) {
      network.setUp(link.name());
    }
  }

  /** What {@link #remove} and {@link #keepOrRemove} found and did. */
  public enum Removal {
    /** A dummy interface of that name was deleted. */
    REMOVED,
    /** There is no link of that name. */
    ABSENT,
    /** A link of that name is not a dummy interface; it was left alone. */
    NOT_A_DUMMY,
    /** The dummy interface is exactly as wanted; it was left as it is. */
    KEPT
  }

  /**
   * Removes the interface if it is a dummy one: the link is read (whether it exists, and its
   * kind), then deleted. A link of another kind (a bridge, a physical NIC that happens to have the
   * name) is never touched.
   */
  public Removal remove(String ifName) throws IOException {
    Optional<NetworkLink> link = network.link(requireInterfaceName(ifName));
    return link.isEmpty() ? Removal.ABSENT : removeIfDummy(ifName, link.get());
  }

  /**
   * {@link #remove} the interface named by {@code wanted}, unless it is already exactly what
   * setting {@code wanted} up makes: a dummy link of that name, up, whose only address is {@code
   * wanted}'s ({@link #isExactly}). That link is read and left: one read, no change.
   */
  public Removal keepOrRemove(LocalDnsInterface wanted) throws IOException {
    Optional<NetworkLink> link = network.link(requireInterfaceName(wanted.name()));
    if (link.isEmpty()) {
      return Removal.ABSENT;
    }
    return isExactly(link.get(), wanted) ? Removal.KEPT : removeIfDummy(wanted.name(), link.get());
  }

  /**
   * Whether {@code link} is a dummy link of {@code wanted}'s name, up, holding {@code wanted}'s
   * address as a /32 and no other address. An IPv6 link-local address ({@code fe80::/10}) does not
   * count: the kernel gives one to every link that comes up, the one set up afresh as well.
   */
  public static boolean isExactly(NetworkLink link, LocalDnsInterface wanted) {
    if (!link.isDummy() || !link.up() || !link.name().equals(wanted.name())) {
      return false;
    }
    List<String> addresses =
        link.addresses().stream().filter(a -> !isIpv6LinkLocal(a)).toList();
    return addresses.equals(List.of(address(wanted.address())));
  }

  private Removal removeIfDummy(String ifName, NetworkLink link) throws IOException {
    if (!link.isDummy()) {
      return Removal.NOT_A_DUMMY;
    }
    network.deleteLink(ifName);
    return Removal.REMOVED;
  }

  private static String address(String bindAddress) {
    return bindAddress + "/32";
  }

  /** Whether {@code cidr} is an IPv6 address in {@code fe80::/10}. */
  private static boolean isIpv6LinkLocal(String cidr) {
    int colon = cidr.indexOf(':');
    if (colon < 1 || colon > 4) {
      return false;
    }
    try {
      return (Integer.parseInt(cidr.substring(0, colon), 16) & 0xffc0) == 0xfe80;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String requireInterfaceName(String ifName) {
    if (!INTERFACE.matcher(ifName).matches()) {
      throw new NodeException(
          "LocalDNS interface name is not a Linux interface name: '" + ifName + "'");
    }
    return ifName;
  }
}
