package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.health.HealthProbes;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.HealthProbesContract;
import dev.noneops.testkit.health.SimHealthProbes.Answer;
import java.net.URI;

class SimulatedHealthProbesContractTest extends HealthProbesContract {
  private final SimulatedHost host = SimulatedHost.create();

  @Override
  protected HealthProbes probes() {
    return host.ports().probes();
  }

  @Override
  protected URI healthyUrl() {
    URI url = URI.create("http://127.0.0.1:8080/ok");
    host.probes().setHttp(url, Answer.OK);
    return url;
  }

  @Override
  protected URI unhealthyUrl() {
    URI url = URI.create("http://127.0.0.1:8080/broken");
    host.probes().setHttp(url, Answer.HANGS);
    return url;
  }
}
