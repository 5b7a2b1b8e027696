package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.internal.stack.WatchedUnitState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.gate.Calls;
import dev.noneops.testkit.gate.FaultRule;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A unit's active state as systemd's signals tell it, asked of systemd only without them. */
class WatchedUnitStateTest {
  private static final String UNIT = "kubelet.service";

  private final SimulatedHost host = SimulatedHost.create();
  private final Systemd systemd = host.ports().systemd();

  WatchedUnitStateTest() throws IOException {
    host.installExecutable(Path.of("/opt/bin/kubelet"), "kubelet");
    host.fs()
        .seedFile(
            Path.of("/etc/systemd/system").resolve(UNIT),
            "[Service]\nExecStart=/opt/bin/kubelet\n",
            0644);
  }

  @Test
  void aUnitThatStopsIsSeenInactiveFromTheSignalWithoutAskingSystemd() {
    assertThat(systemd.start(UNIT, Duration.ofSeconds(5))).isEqualTo(JobResult.DONE);
    try (WatchedUnitState state = WatchedUnitState.watch(systemd, UNIT)) {
      state.seen(systemd.status(UNIT));
      assertThat(state.isActive()).isTrue();
      systemd.stop(UNIT, Duration.ofSeconds(5));
      host.journal().clear();

      assertThat(state.isActive()).isFalse();
      assertThat(host.journal().calls()).noneMatch(c -> c.is("systemd.status"));
    }
  }

  @Test
  void withoutSignalsSystemdIsAskedEachTime() {
    host.faults()
        .add(FaultRule.when(Calls.to("systemd.watch"))
            .failWith(c -> new SystemdException(
                SystemdException.Kind.OTHER, UNIT, "cannot subscribe to signals")));
    assertThat(systemd.start(UNIT, Duration.ofSeconds(5))).isEqualTo(JobResult.DONE);
    try (WatchedUnitState state = WatchedUnitState.watch(systemd, UNIT)) {
      state.seen(systemd.status(UNIT));
      systemd.stop(UNIT, Duration.ofSeconds(5));
      host.journal().clear();

      assertThat(state.isActive()).isFalse();
      assertThat(host.journal().calls()).anyMatch(c -> c.is("systemd.status", UNIT));
    }
  }
}
