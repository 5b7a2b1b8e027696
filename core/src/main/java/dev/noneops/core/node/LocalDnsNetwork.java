package dev.noneops.core.node;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent in three commands where the interface is missing (the
 * upgrade's case, after host networking was cleaned): {@code ip link add}, which fails harmlessly
 * when {@code ip link show} then finds the interface; {@code ip addr replace}, which assigns the
 * address whether or not it is already there, so the kernel's wording for "already assigned"
 * (which differs between releases) is never relied on; and {@code ip link set up}.
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
    Command addLink = commands.command("ip", "link", "add", ifName, "type", "dummy");
    CommandResult added = commands.run(addLink);
    if (!added.succeeded() && !commands.succeeds("ip", "link", "show", "dev", ifName)) {
      throw new CommandFailedException("create LocalDNS interface " + ifName, addLink, added);
    }
    String address = dns.bindAddress() + "/32";
    commands.require("assign " + address + " to " + ifName, "ip", "addr", "replace", address, "dev", ifName);
    commands.require("bring up " + ifName, "ip", "link", "set", ifName, "up");
  }

  /**
   * Removes the interface if it exists: {@code ip link delete}, and only when that fails, {@code ip
   * link show} to tell "already gone" from a real failure.
   */
  void remove(String ifName) throws IOException {
    Command delete = commands.command("ip", "link", "delete", "dev", ifName);
    CommandResult deleted = commands.run(delete);
    if (!deleted.succeeded() && commands.succeeds("ip", "link", "show", "dev", ifName)) {
      throw new CommandFailedException("delete LocalDNS interface " + ifName, delete, deleted);
    }
  }
}
