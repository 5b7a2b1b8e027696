package dev.noneops.ports.network;

import java.util.List;
import java.util.Objects;

/**
 * One network link as the kernel reports it.
 *
 * @param name the interface name
 * @param kind the link kind the kernel names ({@code dummy}, {@code bridge}, {@code veth}, ...);
 *     empty for a link without one (a physical interface, loopback)
 * @param up whether the link is administratively up
 * @param addresses its addresses in CIDR notation ({@code 169.254.20.10/32}), IPv4 and IPv6
 */
public record NetworkLink(String name, String kind, boolean up, List<String> addresses) {
  /** The kind of a dummy link. */
  public static final String DUMMY = "dummy";

  public NetworkLink {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    addresses = List.copyOf(addresses);
  }

  /** Whether this is a dummy link. */
  public boolean isDummy() {
    return kind.equals(DUMMY);
  }
}
