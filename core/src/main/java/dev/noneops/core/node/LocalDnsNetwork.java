package dev.noneops.core.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
  private static final Pattern NO_DEVICE = Pattern.compile("does not exist|Cannot find device");
  private static final String DUMMY = "dummy";
  private static final ObjectMapper JSON = new ObjectMapper();

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
   * Removes the interface if it is a dummy one: {@code ip -j -d link show} tells whether a link of
   * that name exists and its kind, then {@code ip link delete}. A link of another kind (a bridge,
   * a physical NIC that happens to have the name) is never touched.
   */
  Removal remove(String ifName) throws IOException {
    if (!INTERFACE.matcher(ifName).matches()) {
      throw new NodeException("LocalDNS interface name is not a Linux interface name: '" + ifName + "'");
    }
    Command show = commands.command("ip", "-j", "-d", "link", "show", "dev", ifName);
    CommandResult shown = commands.run(show);
    if (!shown.succeeded()) {
      if (NO_DEVICE.matcher(shown.stderr()).find()) {
        return Removal.ABSENT;
      }
      throw new CommandFailedException("look up LocalDNS interface " + ifName, show, shown);
    }
    if (!DUMMY.equals(kind(ifName, shown.stdout()))) {
      return Removal.NOT_A_DUMMY;
    }
    Command delete = commands.command("ip", "link", "delete", "dev", ifName);
    CommandResult deleted = commands.run(delete);
    if (!deleted.succeeded()) {
      throw new CommandFailedException("delete LocalDNS interface " + ifName, delete, deleted);
    }
    return Removal.REMOVED;
  }

  /** The link kind ({@code linkinfo.info_kind}) in {@code ip -j -d link show}'s answer; empty for a link without one. */
  private static String kind(String ifName, String json) {
    try {
      JsonNode links = JSON.readTree(json);
      if (links == null || !links.isArray() || links.isEmpty()) {
        throw new NodeException("cannot tell what kind of link " + ifName + " is: 'ip -j -d link show' answered " + json.strip());
      }
      return links.get(0).path("linkinfo").path("info_kind").asText("");
    } catch (JsonProcessingException e) {
      throw new NodeException("cannot tell what kind of link " + ifName + " is: 'ip -j -d link show' answered no JSON: " + e.getOriginalMessage(), e);
    }
  }
}
