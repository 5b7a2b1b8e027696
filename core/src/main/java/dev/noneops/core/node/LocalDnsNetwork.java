package dev.noneops.core.node;

import dev.noneops.core.goalstate.LocalDnsSpec;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent: the interface and the address are added only when
 * missing.
 */
final class LocalDnsNetwork {
  private static final Pattern INTERFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

  private final HostCommands commands;

  LocalDnsNetwork(HostCommands commands) {
    this.commands = commands;
  }

  void ensure(LocalDnsSpec dns) throws IOException {
    String ifName = dns.interfaceName();
    if (!INTERFACE.matcher(ifName).matches()) {
      throw new NodeException("LocalDNS interface name is not a Linux interface name: '" + ifName + "'");
    }
    String address = dns.bindAddress() + "/32";
    if (!commands.succeeds("ip", "link", "show", "dev", ifName)) {
      commands.require("create LocalDNS interface " + ifName, "ip", "link", "add", ifName, "type", "dummy");
    }
    String addresses = commands.require("list addresses of " + ifName, "ip", "-o", "addr", "show", "dev", ifName).stdout();
    if (!hasAddress(addresses, address)) {
      commands.require("add " + address + " to " + ifName, "ip", "addr", "add", address, "dev", ifName);
    }
    commands.require("bring up " + ifName, "ip", "link", "set", ifName, "up");
  }

  static boolean hasAddress(String ipAddrOutput, String cidr) {
    for (String line : ipAddrOutput.split("\n")) {
      for (String word : line.trim().split("\\s+")) {
        if (word.equals(cidr)) {
          return true;
        }
      }
    }
    return false;
  }
}
