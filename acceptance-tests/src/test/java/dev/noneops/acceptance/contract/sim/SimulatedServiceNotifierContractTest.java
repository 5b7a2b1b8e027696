package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.ServiceNotifierContract;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

class SimulatedServiceNotifierContractTest extends ServiceNotifierContract {
  private final SimulatedHost host = SimulatedHost.create();

  @Override
  protected ServiceNotifier startedByManager(Optional<Duration> watchdog) {
    watchdog.ifPresentOrElse(host.notifier()::underManager, host.notifier()::underManager);
    return host.ports().notifier();
  }

  @Override
  protected ServiceNotifier startedWithoutManager() {
    host.notifier().withoutManager();
    return host.ports().notifier();
  }

  @Override
  protected ServiceNotifier managerGone() {
    host.notifier().underManager();
    host.notifier().managerGone();
    return host.ports().notifier();
  }

  @Override
  protected List<String> received() {
    return host.notifier().messages();
  }
}
