package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.service.ServiceNotifier;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@link ServiceNotifier} contract: what a manager receives, in order, and that without a
 * manager nothing is sent. A subclass supplies notifiers started in each situation and what its
 * manager has received.
 */
public abstract class ServiceNotifierContract {

  /** A notifier of a process started by a listening manager, with that watchdog interval (empty: none). */
  protected abstract ServiceNotifier startedByManager(Optional<Duration> watchdog) throws Exception;

  /** A notifier of a process started without a manager (no {@code NOTIFY_SOCKET}). */
  protected abstract ServiceNotifier startedWithoutManager() throws Exception;

  /** A notifier whose manager stopped listening after it started the process. */
  protected abstract ServiceNotifier managerGone() throws Exception;

  /** Every message the manager received so far, each whole, oldest first. */
  protected abstract List<String> received() throws Exception;

  @Test
  void readyReachesTheManager() throws Exception {
    ServiceNotifier notifier = startedByManager(Optional.empty());

    notifier.ready();

    assertThat(notifier.enabled()).isTrue();
    assertThat(received()).containsExactly("READY=1");
  }

  @Test
  void messagesArriveInTheOrderTheyWereSent() throws Exception {
    ServiceNotifier notifier = startedByManager(Optional.of(Duration.ofSeconds(2)));

    notifier.status("recovering");
    notifier.ready();
    notifier.watchdog();
    notifier.watchdog();
    notifier.stopping();

    assertThat(received())
        .containsExactly("STATUS=recovering", "READY=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1");
  }

  @Test
  void reloadingCarriesTheMonotonicTimeItWasSentAt() throws Exception {
    ServiceNotifier notifier = startedByManager(Optional.empty());

    notifier.reloading();
    notifier.reloading();

    List<String> got = received();
    assertThat(got).hasSize(2);
    long first = monotonicMicros(got.get(0));
    long second = monotonicMicros(got.get(1));
    assertThat(first).isPositive();
    assertThat(second).isGreaterThanOrEqualTo(first);
  }

  private static long monotonicMicros(String message) {
    List<String> lines = message.lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).isEqualTo("RELOADING=1");
    assertThat(lines.get(1)).matches("MONOTONIC_USEC=[0-9]+");
    return Long.parseLong(lines.get(1).substring("MONOTONIC_USEC=".length()));
  }

  @Test
  void theWatchdogIntervalIsTheOneTheManagerSet() throws Exception {
    assertThat(startedByManager(Optional.of(Duration.ofMillis(2500))).watchdogInterval())
        .contains(Duration.ofMillis(2500));
    assertThat(startedByManager(Optional.empty()).watchdogInterval()).isEmpty();
  }

  @Test
  void aStatusOfMoreThanOneLineIsRefusedBeforeAnythingIsSent() throws Exception {
    ServiceNotifier notifier = startedByManager(Optional.empty());

    assertThatThrownBy(() -> notifier.status("recovering\nREADY=1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> notifier.status("a\0b")).isInstanceOf(IllegalArgumentException.class);

    assertThat(received()).isEmpty();
  }

  @Test
  void withoutAManagerEveryNotificationDoesNothing() throws Exception {
    ServiceNotifier notifier = startedWithoutManager();

    notifier.status("recovering");
    notifier.ready();
    notifier.reloading();
    notifier.watchdog();
    notifier.stopping();

    assertThat(notifier.enabled()).isFalse();
    assertThat(notifier.watchdogInterval()).isEmpty();
    assertThat(received()).isEmpty();
  }

  @Test
  void aMessageToAManagerThatStoppedListeningIsAHostError() throws Exception {
    ServiceNotifier notifier = managerGone();

    assertThatThrownBy(notifier::ready)
        .isInstanceOfSatisfying(
            HostIOException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ECONNREFUSED));
  }
}
