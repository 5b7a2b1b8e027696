package dev.noneops.hostfs.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.nativeio.UnixDatagrams;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the environment a manager sets is read: the watchdog as sd_watchdog_enabled, the socket as sd_notify. */
class NotifySocketServiceNotifierTest {
  private static final long PID = 4242;

  private static NotifySocketServiceNotifier notifier(Map<String, String> env) {
    return new NotifySocketServiceNotifier(env, PID, () -> {
      throw new AssertionError("the C library must not be bound");
    });
  }

  @Test
  void theWatchdogIsOursWhenItsPidIsOursOrUnset() {
    assertThat(
            notifier(Map.of("WATCHDOG_USEC", "2000000", "WATCHDOG_PID", "4242")).watchdogInterval())
        .contains(Duration.ofSeconds(2));
    assertThat(notifier(Map.of("WATCHDOG_USEC", "1500")).watchdogInterval())
        .contains(Duration.ofNanos(1_500_000));
  }

  @Test
  void aWatchdogOfAnotherProcessOrWithoutAValidIntervalIsNone() {
    assertThat(notifier(Map.of("WATCHDOG_USEC", "2000000", "WATCHDOG_PID", "1")).watchdogInterval())
        .isEmpty();
    assertThat(notifier(Map.of("WATCHDOG_USEC", "0")).watchdogInterval()).isEmpty();
    assertThat(notifier(Map.of("WATCHDOG_USEC", "-5")).watchdogInterval()).isEmpty();
    assertThat(notifier(Map.of("WATCHDOG_USEC", "soon")).watchdogInterval()).isEmpty();
    assertThat(notifier(Map.of("WATCHDOG_USEC", "2000000", "WATCHDOG_PID", "x")).watchdogInterval())
        .isEmpty();
    assertThat(notifier(Map.of("WATCHDOG_PID", "4242")).watchdogInterval()).isEmpty();
  }

  @Test
  void withoutNotifySocketNothingIsBoundOrSent() throws Exception {
    NotifySocketServiceNotifier n = notifier(Map.of());
    n.ready();
    n.reloading();
    n.status("up");
    n.watchdog();
    n.stopping();
    assertThat(n.enabled()).isFalse();
  }

  @Test
  void aSocketThatIsNeitherAPathNorAnAbstractNameIsEinvalNamingIt() {
    for (String socket :
        new String[] {"", "@", "run/notify", "vsock:2:1234", "/" + "x".repeat(107)}) {
      NotifySocketServiceNotifier n = notifier(Map.of("NOTIFY_SOCKET", socket));
      assertThat(n.enabled()).isTrue();
      assertThatThrownBy(n::ready).as(socket).isInstanceOfSatisfying(HostIOException.class, e -> {
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.target()).isEqualTo(socket);
      });
    }
  }

  @Test
  void aPathLeavesRoomForItsNulAndAnAbstractNameMayFillTheAddress() {
    assertThat(NotifySocketServiceNotifier.addressOf("/" + "x".repeat(106))).isPresent();
    assertThat(
            NotifySocketServiceNotifier.addressOf("@" + "x".repeat(UnixDatagrams.MAX_ADDRESS - 1)))
        .hasValueSatisfying(a -> assertThat(a[0]).isZero());
    assertThat(NotifySocketServiceNotifier.addressOf("@" + "x".repeat(UnixDatagrams.MAX_ADDRESS)))
        .isEmpty();
  }

  @Test
  void aStatusOfTwoLinesIsRefusedEvenWithoutAManager() {
    assertThatThrownBy(() -> notifier(Map.of()).status("a\nREADY=1"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
