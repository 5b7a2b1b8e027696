package dev.noneops.core.node;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent: the interface is added only when {@code ip link show}
 * does not find it, and the address only when {@code ip -o addr show} does not list it. The
 * kernel's answer to adding an address twice differs between releases ({@code File exists},
 * {@code Address already assigned}), so it is never relied on.
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
    if (!hasAddress(ifName, address)) {
      Command addAddress = commands.command("ip", "addr", "add", address, "dev", ifName);
      CommandResult added = commands.run(addAddress);
      if (!added.succeeded()) {
        throw new CommandFailedException("add " + address + " to " + ifName, addAddress, added);
      }
    }
    commands.require("bring up " + ifName, "ip", "link", "set", ifName, "up");
  }

  /** Whether {@code ip -o addr show dev <ifName>} lists {@code address} (with its prefix length). */
  private boolean hasAddress(String ifName, String address) throws IOException {
    Command show = commands.command("ip", "-o", "addr", "show", "dev", ifName);
    CommandResult shown = commands.run(show);
    if (!shown.succeeded()) {
      throw new CommandFailedException("list the addresses of " + ifName, show, shown);
    }
    return listsAddress(shown.stdout(), address);
  }

  /** Whether one-line {@code ip -o addr} output has an {@code inet}/{@code inet6} entry for {@code address}. */
  static boolean listsAddress(String ipOutput, String address) {
    for (String line : ipOutput.split("\n")) {
      String[] words = line.trim().split("\\s+");
      for (int i = 0; i + 1 < words.length; i++) {
        if ((words[i].equals("inet") || words[i].equals("inet6")) && words[i + 1].equals(address)) {
          return true;
        }
      }
    }
    return false;
  }
}
