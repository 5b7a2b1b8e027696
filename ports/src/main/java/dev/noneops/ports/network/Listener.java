package dev.noneops.ports.network;

import java.util.Objects;

/**
 * A local socket bound to a port: one that would keep a service from binding the same port.
 *
 * @param transport {@code tcp} or {@code udp}
 * @param address the local address, without brackets or zone: {@code 127.0.0.1}, {@code 0.0.0.0},
 *     {@code ::}; an IPv4-mapped IPv6 address ({@code ::ffff:127.0.0.1}, a dual-stack socket
 *     bound to an IPv4 address) as the IPv4 one
 * @param port the local port
 */
public record Listener(String transport, String address, int port) {
  public static final String TCP = "tcp";
  public static final String UDP = "udp";

  public Listener {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(address, "address");
    if (!transport.equals(TCP) && !transport.equals(UDP)) {
      throw new IllegalArgumentException("transport must be tcp or udp: " + transport);
    }
  }

  /** Whether it is bound to every address of its family. */
  public boolean wildcard() {
    return address.equals("0.0.0.0") || address.equals("::") || address.equals("*");
  }
}
