package dev.noneops.hostfs.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.network.NetworkLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How iproute2's answers become links and errnos (the behaviour itself is the HostNetwork contract's). */
class IpHostNetworkTest {
  private final List<List<String>> run = new ArrayList<>();
  private CommandResult answer = new CommandResult(0, "", "", false);
  private final IpHostNetwork network = new IpHostNetwork(
      command -> {
        run.add(command.argv());
        return answer;
      },
      Duration.ofSeconds(5));

  @Test
  void aLinkIsReadWithItsKindStateAndEveryAddress() throws Exception {
    answer = new CommandResult(0, """
        [{"ifindex":4,"ifname":"localdns0","flags":["BROADCAST","NOARP","UP","LOWER_UP"],"linkinfo":{"info_kind":"dummy"},
          "addr_info":[{"family":"inet","local":"169.254.20.10","prefixlen":32},{"family":"inet6","local":"fe80::1","prefixlen":64}]}]
        """, "", false);

    NetworkLink link = network.link("localdns0").orElseThrow();

    assertThat(run).containsExactly(List.of("ip", "-j", "-d", "addr", "show", "dev", "localdns0"));
    assertThat(link)
        .isEqualTo(
            new NetworkLink("localdns0", "dummy", true, List.of("169.254.20.10/32", "fe80::1/64")));
  }

  @Test
  void aPhysicalLinkHasNoKind() throws Exception {
    answer = new CommandResult(
        0,
        "[{\"ifindex\":2,\"ifname\":\"eth0\",\"flags\":[\"BROADCAST\"],\"addr_info\":[]}]",
        "",
        false);

    assertThat(network.link("eth0").orElseThrow().kind()).isEmpty();
  }

  @Test
  void aLinkThatDoesNotExistIsEmptyAndAnAnswerThatIsNoJsonIsEio() throws Exception {
    answer = new CommandResult(1, "", "Device \"nosuch\" does not exist.\n", false);
    assertThat(network.link("nosuch")).isEmpty();

    answer = new CommandResult(0, "not json", "", false);
    assertThatThrownBy(() -> network.link("x0"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EIO));
  }

  @Test
  void aFailureCarriesTheErrnoIpNamesAndIpsWords() {
    answer = new CommandResult(2, "", "Error: Unknown device type.\n", false);

    assertThatThrownBy(() -> network.addDummyLink("localdns0"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP))
        .hasMessage(
            "add dummy link localdns0: EOPNOTSUPP: `ip link add localdns0 type dummy` exited 2: Error: Unknown device type.");
  }

  @Test
  void aCommandThatTimesOutIsEtimedout() {
    answer = new CommandResult(-1, "", "", true);

    assertThatThrownBy(() -> network.setUp("localdns0"))
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ETIMEDOUT));
    assertThat(run).containsExactly(List.of("ip", "link", "set", "dev", "localdns0", "up"));
  }
}
