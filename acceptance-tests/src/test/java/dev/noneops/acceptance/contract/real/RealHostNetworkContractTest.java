package dev.noneops.acceptance.contract.real;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.network.IpHostNetwork;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.testkit.contract.HostNetworkContract;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link HostNetwork} contract on the real kernel, through {@code ip}, inside a network
 * namespace of the test's own: the machine's links are never seen nor touched. On a kernel
 * without dummy links the contract checks the refusal (no stand-in link here).
 */
class RealHostNetworkContractTest extends HostNetworkContract {
  private static final RealHost HOST = RealHost.create();

  private PrivateKernelNamespace namespace;
  private CommandRunner commands;
  private HostNetwork network;

  @BeforeEach
  void enterANetworkOfItsOwn() throws IOException {
    String whyNot = PrivateKernelNamespace.whyNot();
    assumeTrue(whyNot.isEmpty(), whyNot);
    namespace = PrivateKernelNamespace.create();
    commands = namespace.commands(HOST.commands());
    network = new IpHostNetwork(commands, RealHost.KERNEL_COMMAND_TIMEOUT);
  }

  @AfterEach
  void dropIt() throws InterruptedException {
    if (namespace != null) {
      namespace.close();
    }
  }

  @Override
  protected HostNetwork network() {
    return network;
  }

  @Override
  protected void addLinkOfKind(String name, String kind) throws IOException {
    namespace.require(HOST.commands(), "ip", "link", "add", name, "type", kind);
  }

  /** A perl of the host, inside the namespace, holding the socket until it is destroyed. */
  @Override
  protected AutoCloseable bind(String transport, String address, int port) throws IOException {
    namespace.require(HOST.commands(), "ip", "link", "set", "lo", "up");
    String options =
        transport.equals(Listener.TCP) ? "Listen => 5, Proto => 'tcp'" : "Proto => 'udp'";
    Process holder = namespace.spawn(
        "perl",
        "-MIO::Socket::INET",
        "-e",
        "$| = 1; my $s = IO::Socket::INET->new(LocalAddr => '" + address + "', LocalPort => "
            + port + ", ReuseAddr => 1, " + options + ") or die \"bind: $!\\n\";"
            + " print \"ready\\n\"; sleep 600;");
    return () -> {
      holder.destroyForcibly();
      holder.waitFor(10, TimeUnit.SECONDS);
    };
  }

  @Override
  protected boolean makesDummyLinks() throws IOException {
    return DummyLinkStandIn.kernelHasDummyLinks(commands);
  }
}
