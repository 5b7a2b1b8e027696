package dev.noneops.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.testing.RecordingLog;
import dev.noneops.daemon.internal.UnitWatch;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.testkit.SimulatedHost;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The daemon's unit watch as systemd's signals reach it: a unit that fails, or whose main process
 * died and that systemd restarts ({@code Restart=always}: it never shows {@code failed}), is an
 * error in the journal and wakes the daemon; the restart's own steps are not.
 */
class UnitWatchTest {
  private static final String KUBELET = "kubelet.service";

  private final RecordingLog log = new RecordingLog();
  private final AtomicInteger wakes = new AtomicInteger();
  private final UnitWatch watch = new UnitWatch(
      SimulatedHost.create().ports().systemd(), List.of(KUBELET), log, wakes::incrementAndGet);

  private static UnitStatus kubelet(ActiveState active, String sub) {
    return new UnitStatus(
        KUBELET, LoadState.LOADED, active, sub, 0, "", "signal", Optional.empty());
  }

  @Test
  void aCrashSystemdRestartsIsAFailureAndItsRestartIsNot() {
    watch.start();
    watch.changed(kubelet(ActiveState.ACTIVE, "running"));

    watch.changed(kubelet(ActiveState.ACTIVATING, "auto-restart"));
    watch.changed(kubelet(ActiveState.ACTIVATING, "start"));
    watch.changed(kubelet(ActiveState.ACTIVE, "running"));

    assertThat(log.errors())
        .singleElement()
        .satisfies(l -> assertThat(l).contains(KUBELET + " failed").contains("restarts it"));
    assertThat(wakes).hasValue(1);
    assertThat(log.lines()).anyMatch(l -> l.startsWith("INFO ") && l.contains("active again"));
  }

  @Test
  void aUnitThatFailsWakesTheDaemonOnce() {
    watch.start();
    watch.changed(kubelet(ActiveState.ACTIVE, "running"));

    watch.changed(kubelet(ActiveState.FAILED, "failed"));
    watch.changed(kubelet(ActiveState.FAILED, "failed"));

    assertThat(log.errors()).singleElement().satisfies(l -> assertThat(l).contains("failed"));
    assertThat(wakes).hasValue(1);
  }
}
