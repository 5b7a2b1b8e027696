package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The LocalDNS interface is set up and removed idempotently, in as few {@code ip} commands as the
 * host's state allows; only a dummy interface is ever removed.
 */
class LocalDnsNetworkTest {
  private final IpOnLinks ip = new IpOnLinks();
  private final LocalDnsNetwork network = new LocalDnsNetwork(new HostCommands(ip, Duration.ofSeconds(5)));
  private final LocalDnsSpec dns = spec("localdns0");

  @Test
  void aMissingInterfaceIsCreatedAddressedAndBroughtUpInThreeCommands() throws Exception {
    network.ensure(dns);

    assertThat(ip.run).containsExactly(
        "ip link add " + dns.interfaceName() + " type dummy",
        "ip addr replace " + dns.bindAddress() + "/32 dev " + dns.interfaceName(),
        "ip link set " + dns.interfaceName() + " up");
    assertThat(ip.links).containsOnlyKeys(dns.interfaceName());
  }

  @Test
  void anExistingInterfaceIsKeptAndItsAddressReplacedNotAddedTwice() throws Exception {
    network.ensure(dns);
    ip.run.clear();

    network.ensure(dns);

    assertThat(ip.run).containsExactly(
        "ip link add " + dns.interfaceName() + " type dummy",
        "ip -j -d link show dev " + dns.interfaceName(),
        "ip addr replace " + dns.bindAddress() + "/32 dev " + dns.interfaceName(),
        "ip link set " + dns.interfaceName() + " up");
  }

  @Test
  void aLinkOfTheNameThatIsNotADummyIsRefusedAndGetsNoAddress() {
    ip.links.put(dns.interfaceName(), "bridge");

    assertThatThrownBy(() -> network.ensure(dns))
        .isInstanceOf(NodeException.class)
        .hasMessageContaining(dns.interfaceName())
        .hasMessageContaining("bridge");
    assertThat(ip.run).noneMatch(c -> c.startsWith("ip addr") || c.startsWith("ip link set"));
  }

  @Test
  void anInterfaceThatCannotBeCreatedIsAnErrorNamingIt() {
    ip.refuseAdd = true;

    assertThatThrownBy(() -> network.ensure(dns))
        .isInstanceOf(CommandFailedException.class)
        .hasMessageContaining("create LocalDNS interface " + dns.interfaceName())
        .hasMessageContaining("Unknown device type");
  }

  @Test
  void anInterfaceNameLinuxWouldRejectIsRefusedBeforeAnyCommand() {
    LocalDnsSpec bad = spec("name with spaces");

    assertThatThrownBy(() -> network.ensure(bad)).isInstanceOf(NodeException.class).hasMessageContaining("'name with spaces'");
    assertThat(ip.run).isEmpty();
  }

  @Test
  void removingAPresentDummyInterfaceLooksItUpThenDeletesIt() throws Exception {
    network.ensure(dns);
    ip.run.clear();

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.REMOVED);

    assertThat(ip.run).containsExactly("ip -j -d link show dev " + dns.interfaceName(), "ip link delete dev " + dns.interfaceName());
    assertThat(ip.links).isEmpty();
  }

  @Test
  void removingAnAbsentInterfaceSucceeds() throws Exception {
    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.ABSENT);

    assertThat(ip.run).containsExactly("ip -j -d link show dev " + dns.interfaceName());
  }

  @Test
  void aLinkOfTheNameThatIsNotADummyIsNeverDeleted() throws Exception {
    ip.links.put(dns.interfaceName(), "bridge");

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);

    assertThat(ip.run).containsExactly("ip -j -d link show dev " + dns.interfaceName());
    assertThat(ip.links).containsKey(dns.interfaceName());
  }

  @Test
  void aLinkWithoutAKindIsNeverDeleted() throws Exception {
    ip.links.put(dns.interfaceName(), "");

    assertThat(network.remove(dns.interfaceName())).isEqualTo(LocalDnsNetwork.Removal.NOT_A_DUMMY);
    assertThat(ip.links).containsKey(dns.interfaceName());
  }

  @Test
  void anInterfaceThatStaysAfterDeleteIsAnError() throws Exception {
    network.ensure(dns);
    ip.refuseDelete = true;

    assertThatThrownBy(() -> network.remove(dns.interfaceName()))
        .isInstanceOf(CommandFailedException.class)
        .hasMessageContaining("delete LocalDNS interface " + dns.interfaceName());
  }

  private static LocalDnsSpec spec(String interfaceName) {
    return new LocalDnsSpec("/opt/unbounded/node/current/bin/coredns", interfaceName, "169.254.20.10", 53, "cluster.local",
        "10.0.0.10", List.of("1.1.1.1"));
  }

  /** {@code ip link}/{@code ip addr} over a set of link names, recording every command. */
  private static final class IpOnLinks implements CommandRunner {
    final List<String> run = new ArrayList<>();
    /** Link name to kind ("" for a link without one, as a physical NIC). */
    final Map<String, String> links = new LinkedHashMap<>();
    boolean refuseAdd;
    boolean refuseDelete;

    @Override
    public CommandResult run(Command command) {
      List<String> a = command.argv();
      run.add(String.join(" ", a));
      if (a.size() == 7 && a.subList(1, 6).equals(List.of("-j", "-d", "link", "show", "dev"))) {
        String kind = links.get(a.get(6));
        if (kind == null) {
          return fail("Device \"" + a.get(6) + "\" does not exist.");
        }
        String linkinfo = kind.isEmpty() ? "" : ",\"linkinfo\":{\"info_kind\":\"" + kind + "\"}";
        return new CommandResult(0, "[{\"ifindex\":3,\"ifname\":\"" + a.get(6) + "\"" + linkinfo + "}]\n", "", false);
      }
      String verb = a.get(1) + " " + a.get(2);
      switch (verb) {
        case "link add":
          if (refuseAdd) {
            return fail("Error: Unknown device type.");
          }
          return links.putIfAbsent(a.get(3), a.get(5)) == null ? ok() : fail("RTNETLINK answers: File exists");
        case "link show":
          return links.containsKey(a.get(4)) ? ok() : fail("Device \"" + a.get(4) + "\" does not exist.");
        case "link delete":
          if (refuseDelete) {
            return fail("RTNETLINK answers: Operation not permitted");
          }
          return links.remove(a.get(4)) != null ? ok() : fail("Cannot find device \"" + a.get(4) + "\"");
        case "addr replace":
          return links.containsKey(a.get(5)) ? ok() : fail("Cannot find device \"" + a.get(5) + "\"");
        case "link set":
          return links.containsKey(a.get(3)) ? ok() : fail("Cannot find device \"" + a.get(3) + "\"");
        default:
          return fail("unexpected command " + a);
      }
    }

    private static CommandResult ok() {
      return new CommandResult(0, "", "", false);
    }

    private static CommandResult fail(String stderr) {
      return new CommandResult(2, "", stderr + "\n", false);
    }
  }
}
