package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.testkit.gate.Calls;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.systemd.SimServiceNotifier.Notification;
import dev.noneops.testkit.time.VirtualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated notifier: what a test reads from it besides the contract. */
class SimulatedServiceNotifierTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final ServiceNotifier notifier = host.ports().notifier();

  @Test
  void aFreshHostsProcessRunsWithoutAManager() throws Exception {
    notifier.ready();

    assertThat(notifier.enabled()).isFalse();
    assertThat(host.notifier().notifications()).isEmpty();
    assertThat(host.journal().calls(Calls.port("notifier"))).isEmpty();
  }

  @Test
  void eachMessageCarriesTheVirtualTimeItWasSentAt() throws Exception {
    host.notifier().underManager(Duration.ofSeconds(20));
    host.clock().advance(Duration.ofSeconds(3));
    notifier.ready();
    host.clock().advance(Duration.ofSeconds(10));
    notifier.watchdog();

    assertThat(host.notifier().notifications())
        .containsExactly(
            new Notification(VirtualClock.EPOCH.plusSeconds(3), "READY=1"),
            new Notification(VirtualClock.EPOCH.plusSeconds(13), "WATCHDOG=1"));
  }

  @Test
  void theLongestSilenceSinceReadyIsWhatAWatchdogWouldMeasure() throws Exception {
    host.notifier().underManager(Duration.ofSeconds(20));
    notifier.watchdog();
    host.clock().advance(Duration.ofSeconds(30));
    assertThat(host.notifier().longestSilenceSinceReady(host.clock().now())).isEmpty();

    notifier.ready();
    host.clock().advance(Duration.ofSeconds(8));
    notifier.watchdog();
    host.clock().advance(Duration.ofSeconds(12));
    notifier.status("serving");
    host.clock().advance(Duration.ofSeconds(5));
    notifier.watchdog();
    host.clock().advance(Duration.ofSeconds(2));

    assertThat(host.notifier().longestSilenceSinceReady(host.clock().now()))
        .contains(Duration.ofSeconds(17));
  }

  @Test
  void aNotificationIsAJournaledPortCallThatTellsWhereReadyCameInTheRun() throws Exception {
    host.notifier().underManager();
    host.ports().files().exists(Path.of("/etc"));
    notifier.ready();

    List<PortCall> calls = host.journal().calls();
    assertThat(calls.get(calls.size() - 1).is("notifier.ready", "READY=1")).isTrue();
    assertThat(calls.get(calls.size() - 1).mutating()).isFalse();
    assertThat(host.journal().indexOf(Calls.to("notifier.ready")))
        .isGreaterThan(host.journal().indexOf(Calls.port("files")));
  }

  @Test
  void aFaultRuleMakesANotificationFailAsTheHostWould() {
    host.notifier().underManager();
    host.faults().failEvery(Calls.to("notifier.watchdog"), Errno.EAGAIN);

    assertThatThrownBy(notifier::watchdog)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EAGAIN));
    assertThat(host.notifier().notifications()).isEmpty();
  }
}
