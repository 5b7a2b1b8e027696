package dev.noneops.core.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shared LocalDNS network: a dummy interface holding LocalDNS's link-local address, which
 * host-network pods reach too. Idempotent in three commands where the interface is missing (the
 * upgrade's case, after host networking was cleaned): {@code ip link add}, which fails harmlessly
 * when {@code ip -j -d link show} then finds a dummy interface of that name (a link of another
 * kind is refused, never given the address); {@code ip addr replace}, which assigns the
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
    if (!added.succeeded()) {
      Optional<String> kind = kindOf(ifName);
      if (kind.isEmpty()) {
        throw new CommandFailedException("create LocalDNS interface " + ifName, addLink, added);
      }
      if (!kind.get().equals(DUMMY)) {
        throw new NodeException("a link named " + ifName + " exists and is " + (kind.get().isEmpty() ? "a physical interface" : "a " + kind.get() + " link")
            + ", not a dummy interface; LocalDNS's address is not put on it (choose another LocalDNS.InterfaceName)");
      }
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
    Optional<String> kind = kindOf(ifName);
    if (kind.isEmpty()) {
      return Removal.ABSENT;
    }
    if (!kind.get().equals(DUMMY)) {
      return Removal.NOT_A_DUMMY;
    }
    Command delete = commands.command("ip", "link", "delete", "dev", ifName);
    CommandResult deleted = commands.run(delete);
    if (!deleted.succeeded()) {
      throw new CommandFailedException("delete LocalDNS interface " + ifName, delete, deleted);
    }
    return Removal.REMOVED;
  }

  /**
   * The kind of the link named {@code ifName} ({@code ip -j -d link show}): empty when there is no
   * such link, {@code ""} for a link without a kind (a physical NIC).
   */
  private Optional<String> kindOf(String ifName) throws IOException {
    Command show = commands.command("ip", "-j", "-d", "link", "show", "dev", ifName);
    CommandResult shown = commands.run(show);
    if (shown.succeeded()) {
      return Optional.of(kind(ifName, shown.stdout()));
    }
    if (NO_DEVICE.matcher(shown.stderr()).find()) {
      return Optional.empty();
    }
    throw new CommandFailedException("look up LocalDNS interface " + ifName, show, shown);
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
