package dev.noneops.acceptance.contract.real;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.network.IpHostNetwork;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.testkit.contract.HostNetworkContract;
import dev.noneops.testkit.system.DummyLinkStandIn;
import java.io.IOException;
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

  @Override
  protected boolean makesDummyLinks() throws IOException {
    return DummyLinkStandIn.kernelHasDummyLinks(commands);
  }
}
