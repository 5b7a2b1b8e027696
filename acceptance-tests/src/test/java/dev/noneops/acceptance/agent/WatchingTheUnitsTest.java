package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.machine.RecordingLog;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.FaultRule;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops daemon} watching the stack's units through systemd's signals: a failure is in the
 * journal the moment it is signalled and wakes the daemon's loop; without the signals, the daemon
 * says so once and polls the units at every tick.
 */
class WatchingTheUnitsTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");
  private static final String KUBELET = "kubelet.service";

  private final RecordingLog log = new RecordingLog();
  private SimNode lab;

  @BeforeEach
  void aNodeOnV1WithItsAgent() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
  }

  private NodeDaemon daemon(Duration pollInterval, NodeDaemon.Listener listener) {
    return lab.daemon(pollInterval, listener, log);
  }

  private void killKubelet() {
    lab.host.ports().systemd().kill(KUBELET, false, 9);
  }

  @Test
  void aUnitThatFailsIsInTheJournalTheMomentSystemdSignalsItWithoutATick() {
    NodeDaemon daemon = daemon(Duration.ofSeconds(5), NodeDaemon.Listener.NONE);
    daemon.start();

    killKubelet();

    assertThat(log.errors()).anyMatch(l -> l.contains(KUBELET + " failed"));
  }

  @Test
  void withoutTheSignalsItSaysSoOnceAndPollsTheUnitsAtEveryTick() {
    FaultRule noSignals = lab.host
        .faults()
        .add(FaultRule.when(c -> c.is("systemd.watch"))
            .failWith(c -> new SystemdException(SystemdException.Kind.OTHER, "", "no signals")));
    NodeDaemon daemon = daemon(Duration.ofSeconds(5), NodeDaemon.Listener.NONE);
    daemon.start();
    daemon.tick();
    assertThat(noSignals.fired()).isEqualTo(1);

    killKubelet();
    assertThat(log.errors()).as("not signalled").noneMatch(l -> l.contains(KUBELET));
    daemon.tick();
    daemon.tick();

    assertThat(log.errors()).filteredOn(l -> l.contains(KUBELET + " failed")).hasSize(1);
    assertThat(log.lines()).filteredOn(l -> l.contains("polls the units")).hasSize(1);
  }

  @Test
  void aSignalledFailureWakesTheLoopAtOnceInsteadOfAtTheNextInterval() throws Exception {
    try (DaemonLoop loop = DaemonLoop.start(lab, DaemonLoop.NEVER, log)) {
      long reads = loop.configReads();

      killKubelet();

      // the file is unchanged, so its metadata wakes nothing: only the signal can have the loop
      // tick (read its file) within a year's poll interval
      assertThat(loop.awaitTickAfter(reads, Duration.ofSeconds(10)))
          .as("the woken loop ticked")
          .isTrue();
    }
  }
}
