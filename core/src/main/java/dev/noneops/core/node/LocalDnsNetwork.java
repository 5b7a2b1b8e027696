package dev.noneops.core.node;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent: the interface is added only when {@code ip link show}
 * does not find it, and an address that is already assigned ({@code File exists}) is fine.
 */
final class LocalDnsNetwork {
  /** What {@code ip addr add} says when the address is already assigned. */
  static final String ALREADY_THERE = "File exists";
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
    Command addAddress = commands.command("ip", "addr", "add", address, "dev", ifName);
    CommandResult added = commands.run(addAddress);
    if (!added.succeeded() && !added.stderr().contains(ALREADY_THERE)) {
      throw new CommandFailedException("add " + address + " to " + ifName, addAddress, added);
    }
    commands.require("bring up " + ifName, "ip", "link", "set", ifName, "up");
  }
}
