package dev.noneops.hostfs.network;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.hostfs.commands.CommandErrors;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@link HostNetwork} over iproute2, run through a {@link CommandRunner} (so a runner that enters
 * another network namespace moves the whole port there): {@code ip -j -d addr show dev} reads a
 * link (its kind is {@code linkinfo.info_kind}), {@code ip -j link show} lists them, {@code ip link add ... [up] type dummy},
 * {@code ip addr replace}, {@code ip link set dev ... up} and {@code ip link delete dev} change
 * it. A failure's errno is the one {@code ip}'s error line names. The sockets bound to a port come
 * from iproute2's {@code ss -H -l -n -t -u}.
 */
public final class IpHostNetwork implements HostNetwork {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@+-]{1,15}");
  private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]+/[0-9]{1,3}");
  private static final Pattern NO_DEVICE = Pattern.compile("does not exist|Cannot find device");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** How a dual-stack socket bound to an IPv4 address (a JVM's, say) shows its address. */
  private static final String IPV4_MAPPED = "::ffff:";

  private final CommandRunner commands;
  private final Duration timeout;

  public IpHostNetwork(CommandRunner commands, Duration timeout) {
    this.commands = Objects.requireNonNull(commands, "commands");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public Optional<NetworkLink> link(String name) throws IOException {
    Command show = Command.of(timeout, "ip", "-j", "-d", "addr", "show", "dev", requireName(name));
    CommandResult shown = commands.run(show);
    if (shown.succeeded()) {
      return Optional.of(parse(name, shown.stdout()));
    }
    if (!shown.timedOut() && NO_DEVICE.matcher(shown.stderr()).find()) {
      return Optional.empty();
    }
    throw CommandErrors.of("show link", name, show, shown);
  }

  /** {@inheritDoc} From {@code ip -j link show}: each object's {@code ifname}. */
  @Override
  public List<String> linkNames() throws IOException {
    Command show = Command.of(timeout, "ip", "-j", "link", "show");
    CommandResult shown = commands.run(show);
    if (!shown.succeeded()) {
      throw CommandErrors.of("list links", "ip", show, shown);
    }
    JsonNode links;
    try {
      links = JSON.readTree(shown.stdout());
    } catch (JsonProcessingException e) {
      throw new HostIOException(
          Errno.EIO,
          "list links",
          "ip",
          "'ip -j link show' answered no JSON: " + e.getOriginalMessage(),
          e);
    }
    if (links == null || !links.isArray()) {
      throw new HostIOException(
          Errno.EIO,
          "list links",
          "ip",
          "'ip -j link show' answered " + shown.stdout().strip(),
          null);
    }
    List<String> names = new ArrayList<>();
    for (JsonNode link : links) {
      if (link.hasNonNull("ifname")) {
        names.add(link.get("ifname").asText());
      }
    }
    names.sort(null);
    return names;
  }

  @Override
  public void addDummyLink(String name) throws IOException {
    require(
        "add dummy link", name, "ip", "link", "add", requireName(name), "type", NetworkLink.DUMMY);
  }

  /** {@inheritDoc} One {@code ip link add <name> up type dummy}: one process, one netlink request. */
  @Override
  public void addUpDummyLink(String name) throws IOException {
    require(
        "add dummy link",
        name,
        "ip",
        "link",
        "add",
        requireName(name),
        "up",
        "type",
        NetworkLink.DUMMY);
  }

  @Override
  public void assignAddress(String link, String address) throws IOException {
    if (address == null || !ADDRESS.matcher(address).matches()) {
      throw new IllegalArgumentException("not an address in CIDR notation: '" + address + "'");
    }
    require(
        "assign " + address + " to",
        link,
        "ip",
        "addr",
        "replace",
        address,
        "dev",
        requireName(link));
  }

  @Override
  public void setUp(String link) throws IOException {
    require("set up link", link, "ip", "link", "set", "dev", requireName(link), "up");
  }

  @Override
  public void deleteLink(String name) throws IOException {
    require("delete link", name, "ip", "link", "delete", "dev", requireName(name));
  }

  @Override
  public List<Listener> listeners(int port) throws IOException {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("not a port: " + port);
    }
    Command list = Command.of(timeout, "ss", "-H", "-l", "-n", "-t", "-u");
    CommandResult listed = commands.run(list);
    if (!listed.succeeded()) {
      throw CommandErrors.of("list sockets on port " + port, "ss", list, listed);
    }
    List<Listener> bound = new ArrayList<>();
    for (String line : listed.stdout().split("\n")) {
      String[] columns = line.strip().split("\\s+");
      if (columns.length < 5) {
        continue;
      }
      String local = columns[4];
      int colon = local.lastIndexOf(':');
      if (colon < 0 || !local.substring(colon + 1).equals(Integer.toString(port))) {
        continue;
      }
      String address = local.substring(0, colon).replace("[", "").replace("]", "");
      int zone = address.indexOf('%');
      address = zone < 0 ? address : address.substring(0, zone);
      if (address.startsWith(IPV4_MAPPED) && address.indexOf('.') > 0) {
        address = address.substring(IPV4_MAPPED.length());
      }
      String transport = columns[0].equals("tcp") ? Listener.TCP : Listener.UDP;
      bound.add(new Listener(transport, address.equals("*") ? "0.0.0.0" : address, port));
    }
    return bound;
  }

  private void require(String operation, String target, String... argv) throws IOException {
    Command command = Command.of(timeout, argv);
    CommandResult result = commands.run(command);
    if (!result.succeeded()) {
      throw CommandErrors.of(operation, target, command, result);
    }
  }

  private static String requireName(String name) {
    if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("not a Linux interface name: '" + name + "'");
    }
    return name;
  }

  /** The link in {@code ip -j -d addr show dev}'s answer: one object with its flags, linkinfo and addr_info. */
  private static NetworkLink parse(String name, String json) throws HostIOException {
    JsonNode links;
    try {
      links = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new HostIOException(
          Errno.EIO,
          "show link",
          name,
          "'ip -j -d addr show' answered no JSON: " + e.getOriginalMessage(),
          e);
    }
    if (links == null || !links.isArray() || links.size() != 1) {
      throw new HostIOException(
          Errno.EIO, "show link", name, "'ip -j -d addr show' answered " + json.strip(), null);
    }
    JsonNode link = links.get(0);
    boolean up = false;
    for (JsonNode flag : link.path("flags")) {
      up |= flag.asText().equals("UP");
    }
    List<String> addresses = new ArrayList<>();
    for (JsonNode address : link.path("addr_info")) {
      if (address.hasNonNull("local") && address.hasNonNull("prefixlen")) {
        addresses.add(
            address.get("local").asText() + "/" + address.get("prefixlen").asInt());
      }
    }
    return new NetworkLink(
        link.path("ifname").asText(name),
        link.path("linkinfo").path("info_kind").asText(""),
        up,
        addresses);
  }
}
