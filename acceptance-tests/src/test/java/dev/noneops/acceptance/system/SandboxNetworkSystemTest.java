package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.fixtures.sandbox.HostNetworkSnapshot;
import dev.noneops.testkit.fixtures.sandbox.SandboxNetwork;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A sandbox booted with a network namespace of its own: its loopback is up, nothing of the host's
 * links is in it, what is created inside (a bridge, a veth pair, addresses, a listening port) is
 * invisible to the host, and after the sandbox is gone the host's links, addresses, routes and
 * packet filter rules are as before.
 */
class SandboxNetworkSystemTest {
  @BeforeAll
  static void requireSandbox() {
    SandboxRequirements.unmetReason().ifPresent(Assumptions::abort);
  }

  @Test
  void aSandboxWithItsOwnNetworkLeavesTheHostsNetworkAsItFoundIt() throws Exception {
    HostNetworkSnapshot before = HostNetworkSnapshot.take();

    try (SystemdSandbox sandbox = SystemdSandbox.boot("own-net", SandboxNetwork.OWN)) {
      String links = sandbox.exec("ip", "-o", "link", "show").orThrow().stdout();
      assertThat(links.lines()).as("only its loopback").hasSize(1);
      assertThat(links).contains("lo:").contains("UP");
      run(sandbox, "ip", "link", "add", "nobr0", "type", "bridge");
      run(sandbox, "ip", "link", "add", "noveth0", "type", "veth", "peer", "name", "noveth1");
      run(sandbox, "ip", "link", "set", "noveth1", "master", "nobr0");
      run(sandbox, "ip", "addr", "add", "10.231.0.1/24", "dev", "nobr0");
      run(sandbox, "ip", "link", "set", "nobr0", "up");
      assertThat(
              sandbox.exec("ip", "-o", "addr", "show", "dev", "nobr0").orThrow().stdout())
          .contains("10.231.0.1/24");
      assertThat(sandbox.exec("ip", "-o", "link", "show").orThrow().stdout())
          .contains("nobr0")
          .contains("noveth0");
      assertThat(HostNetworkSnapshot.take().views().get("ip -j link show"))
          .as("the host sees none of the sandbox's links")
          .doesNotContain("nobr0")
          .doesNotContain("noveth");

      String listening = sandbox
          .exec(
              List.of(
                  "/usr/bin/python3",
                  "-c",
                  "import socket; s = socket.socket(); s.bind(('127.0.0.1', 10248)); print('bound')"),
              Duration.ofSeconds(20))
          .orThrow()
          .stdout();
      assertThat(listening).contains("bound");
      try (ServerSocket onHost = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        assertThat(onHost.getLocalPort()).isPositive();
      }
    }

    assertThat(HostNetworkSnapshot.take())
        .as("links, addresses, routes and rules of the host after the sandbox")
        .isEqualTo(before);
  }

  private static void run(SystemdSandbox sandbox, String... command) {
    sandbox.exec(command).orThrow();
  }
}
