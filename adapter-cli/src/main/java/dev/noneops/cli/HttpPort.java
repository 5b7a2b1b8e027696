package dev.noneops.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** The address {@code noneops daemon --metrics-listen} serves {@code /metrics} on. */
final class HttpPort {
  /** The port when the operator names none. */
  static final int DEFAULT = 9847;

  private HttpPort() {}

  /**
   * {@code ADDRESS[:PORT]}: an IPv4 address or host name, or an IPv6 address in brackets ({@code
   * [::1]:9847}); the port {@link #DEFAULT} when none is given.
   */
  static InetSocketAddress parse(String text) {
    String host = text.trim();
    int port = DEFAULT;
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      if (end < 0) {
        throw invalid(text, "an IPv6 address is written in brackets, e.g. [::1]:" + DEFAULT);
      }
      String rest = host.substring(end + 1);
      host = host.substring(1, end);
      if (!rest.isEmpty()) {
        port = port(text, rest.startsWith(":") ? rest.substring(1) : rest);
      }
    } else if (host.indexOf(':') >= 0) {
      if (host.indexOf(':') != host.lastIndexOf(':')) {
        throw invalid(text, "an IPv6 address is written in brackets, e.g. [::1]:" + DEFAULT);
      }
      port = port(text, host.substring(host.indexOf(':') + 1));
      host = host.substring(0, host.indexOf(':'));
    }
    if (host.isEmpty()) {
      throw invalid(text, "no address: name one, e.g. 127.0.0.1:" + DEFAULT);
    }
    try {
      return new InetSocketAddress(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw invalid(text, "unknown host " + host);
    }
  }

  private static int port(String text, String port) {
    try {
      int p = Integer.parseInt(port);
      if (p < 1 || p > 65535) {
        throw invalid(text, "a port is 1 to 65535");
      }
      return p;
    } catch (NumberFormatException e) {
      throw invalid(text, "'" + port + "' is not a port");
    }
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException("--metrics-listen " + text + ": " + why);
  }
}
