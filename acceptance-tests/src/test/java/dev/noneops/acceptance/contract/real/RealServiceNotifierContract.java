package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.service.NotifySocketServiceNotifier;
import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.testkit.contract.ServiceNotifierContract;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link ServiceNotifier} contract on {@link NotifySocketServiceNotifier}, sending to a
 * datagram socket the test binds where {@link #socketAddress()} says.
 */
abstract class RealServiceNotifierContract extends ServiceNotifierContract {
  private NotifySocketReceiver manager;

  /** The {@code NOTIFY_SOCKET} value the test's manager listens on. */
  abstract String socketAddress() throws Exception;

  @BeforeEach
  void listen() throws Exception {
    manager = NotifySocketReceiver.bind(socketAddress());
  }

  @AfterEach
  void stopListening() {
    manager.close();
  }

  @Override
  protected ServiceNotifier startedByManager(Optional<Duration> watchdog) {
    Map<String, String> env = new HashMap<>(Map.of("NOTIFY_SOCKET", manager.address()));
    watchdog.ifPresent(interval -> {
      env.put("WATCHDOG_USEC", Long.toString(interval.toNanos() / 1000));
      env.put("WATCHDOG_PID", Long.toString(ProcessHandle.current().pid()));
    });
    return NotifySocketServiceNotifier.fromEnvironment(env);
  }

  @Override
  protected ServiceNotifier startedWithoutManager() {
    return NotifySocketServiceNotifier.fromEnvironment(Map.of("PATH", "/usr/bin:/bin"));
  }

  @Override
  protected ServiceNotifier managerGone() {
    ServiceNotifier notifier = startedByManager(Optional.empty());
    manager.close();
    return notifier;
  }

  @Override
  protected List<String> received() {
    return manager.receiveAll();
  }
}
