package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HostNetworkContract;

/** The simulated kernel built without dummy links refuses them as a real one does. */
class SimulatedHostNetworkWithoutDummyLinksContractTest extends HostNetworkContract {
  private final SimulatedHost host = SimulatedHost.create();

  SimulatedHostNetworkWithoutDummyLinksContractTest() {
    host.kernel().withoutDummyLinks();
  }

  @Override
  protected HostNetwork network() {
    return host.ports().network();
  }

  @Override
  protected void addLinkOfKind(String name, String kind) {
    host.kernel().seedLink(name, kind);
  }

  @Override
  protected boolean makesDummyLinks() {
    return false;
  }

  @Override
  protected AutoCloseable bind(String transport, String address, int port) {
    Listener listener = new Listener(transport, address, port);
    host.kernel().listen(listener);
    return () -> host.kernel().unlisten(listener);
  }
}
