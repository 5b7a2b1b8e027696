package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.machine.RecordingLog;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops daemon} while the system bus is away ({@code systemctl restart dbus.service}):
 * it stops feeding the watchdog and says since when systemd is unreachable, so a bus that stays
 * away has systemd restart it; a changed file waits for systemd; once the bus is back it feeds the
 * watchdog again, applies the file and tells of a unit that failed meanwhile.
 */
class LosingTheSystemBusTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");
  private static final String KUBELET = "kubelet.service";
  private static final Duration WATCHDOG = Duration.ofSeconds(120);

  private final RecordingLog log = new RecordingLog();
  private SimNode lab;
  private NodeDaemon daemon;

  @BeforeEach
  void aNodeOnV1WithItsDaemonRunning() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    daemon = lab.daemon(log);
    daemon.start();
    daemon.tick();
  }

  @Test
  void whileSystemdIsUnreachableTheWatchdogGoesUnfedAndTheDaemonSaysSinceWhen() {
    assertThat(daemon.alive(WATCHDOG)).isTrue();
    Instant lost = lab.host.clock().now();
    lab.host.systemd().loseBus();

    daemon.tick();

    assertThat(daemon.alive(WATCHDOG))
        .as("no keep-alive while systemd is unreachable")
        .isFalse();
    assertThat(daemon.systemdUnreachableSince()).contains(lost);
    assertThat(log.errors()).anyMatch(l -> l.contains("systemd is unreachable"));

    lab.host.systemd().regainBus();
    daemon.tick();

    assertThat(daemon.alive(WATCHDOG)).isTrue();
    assertThat(daemon.systemdUnreachableSince()).isEmpty();
    assertThat(log.lines()).anyMatch(l -> l.contains("systemd is reachable again"));
  }

  @Test
  void aFileChangedWhileSystemdIsUnreachableIsAppliedOnceItIsBack() {
    lab.host.systemd().loseBus();
    lab.writeDesired(V1_GREEN);

    daemon.tick();

    assertThat(daemon.state().lastOperation())
        .as("nothing tried while systemd is unreachable")
        .isEmpty();
    lab.host.systemd().regainBus();
    daemon.tick();

    assertThat(lab.applied()).contains(V1_GREEN);
    assertThat(daemon.state().lastOperation()).map(AgentState.Event::outcome).contains("APPLIED");
  }

  @Test
  void aUnitThatFailedWhileTheBusWasAwayIsInTheJournalOnceItIsBack() {
    long kubelet = lab.host.systemd().mainProcess(KUBELET).orElseThrow().pid();
    lab.host.systemd().loseBus();

    lab.host.processes().signal(kubelet, 9);

    assertThat(log.errors()).noneMatch(l -> l.contains(KUBELET));
    lab.host.systemd().regainBus();
    assertThat(log.errors()).anyMatch(l -> l.contains(KUBELET + " failed"));
  }
}
