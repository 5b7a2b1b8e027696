package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.testkit.systemd.UnitEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Programs in the simulated systemd: what a unit's {@code ExecStart=} does, a recovery gate that
 * the stack's units require and are ordered after, at a start and at boot.
 */
class SimulatedSystemdProgramsTest {
  private static final Duration T = Duration.ofSeconds(30);
  private static final Path UNITS = Path.of("/etc/systemd/system");
  private static final Path AGENT = Path.of("/usr/local/bin/noneops");
  private static final String GATE = "noneops-recover.service";
  private static final String KUBELET = "kubelet.service";
  private static final String CONTAINERD = "containerd.service";
  private static final String LOCALDNS = "localdns.service";
  private static final String CNI = "cni-setup.service";

  private final SimulatedHost host = SimulatedHost.create();
  private final HostPorts ports = host.ports();
  private final List<List<String>> ran = new ArrayList<>();
  private int gateStatus;

  SimulatedSystemdProgramsTest() throws IOException {
    host.installExecutable(AGENT, "noneops");
    host.installExecutable(Path.of("/usr/bin/kubelet"), "kubelet");
    host.installExecutable(Path.of("/usr/bin/containerd"), "containerd");
    host.installExecutable(Path.of("/usr/bin/localdns"), "localdns");
    host.installExecutable(Path.of("/usr/bin/cni-setup"), "cni-setup");
    host.systemd().installProgram(AGENT, argv -> {
      ran.add(argv);
      return gateStatus;
    });
    unit(
        GATE,
        "[Unit]\nBefore=" + LOCALDNS + "\n[Service]\nType=oneshot\nRemainAfterExit=yes\n"
            + "ExecStart=" + AGENT + " recover --at-boot\n[Install]\nWantedBy=multi-user.target\n");
    stackUnit(KUBELET, "Requires=" + GATE + "\nAfter=" + GATE + "\n");
    stackUnit(CONTAINERD, "Requires=" + GATE + "\n");
    stackUnit(LOCALDNS, "");
    stackUnit(CNI, "After=" + GATE + "\n");
  }

  private void unit(String name, String content) throws IOException {
    host.fs().seedFile(UNITS.resolve(name), content, 0644);
  }

  private void stackUnit(String name, String unitSection) throws IOException {
    String exe = "/usr/bin/" + name.substring(0, name.indexOf('.'));
    unit(
        name,
        "[Unit]\n" + unitSection + "[Service]\nType=notify\nExecStart=" + exe + "\n"
            + "[Install]\nWantedBy=multi-user.target\n");
  }

  private List<String> eventsOf(String... units) {
    List<String> wanted = List.of(units);
    return host.systemd().history().stream()
        .filter(e -> wanted.contains(e.unit()))
        .map(UnitEvent::toString)
        .toList();
  }

  @Test
  void aOneshotGateRunsItsProgramInsideTheStartJobThenStaysActiveExited() {
    assertThat(ports.systemd().start(KUBELET, T)).isEqualTo(JobResult.DONE);

    assertThat(ran).containsExactly(List.of(AGENT.toString(), "recover", "--at-boot"));
    UnitStatus gate = ports.systemd().status(GATE);
    assertThat(gate.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(gate.sub()).isEqualTo("exited");
    assertThat(gate.mainPid()).isZero();
    assertThat(ports.systemd().status(KUBELET).active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(eventsOf(GATE, KUBELET))
        .containsExactly(GATE + " activating", GATE + " started", KUBELET + " started");
  }

  @Test
  void aOneshotGateThatFailsKeepsTheUnitsThatRequireItDown() {
    gateStatus = 1;

    assertThat(ports.systemd().start(KUBELET, T)).isEqualTo(JobResult.DEPENDENCY);

    UnitStatus gate = ports.systemd().status(GATE);
    assertThat(gate.active()).isEqualTo(ActiveState.FAILED);
    assertThat(gate.result()).isEqualTo("exit-code");
    UnitStatus kubelet = ports.systemd().status(KUBELET);
    assertThat(kubelet.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(kubelet.mainPid()).isZero();
    assertThat(ports.systemd().start(GATE, T)).isEqualTo(JobResult.FAILED);
  }

  @Test
  void aProgramRunsWhateverLinkTheUnitNamesItBy() throws IOException {
    host.installExecutable(Path.of("/opt/noneops/v1/bin/noneops"), "noneops v1");
    host.fs().seedSymlink(Path.of("/usr/bin/noneops"), "/opt/noneops/v1/bin/noneops");
    host.fs().seedSymlink(Path.of("/usr/sbin/noneops"), "/opt/noneops/v1/bin/noneops");
    host.systemd().installProgram(Path.of("/usr/bin/noneops"), argv -> {
      ran.add(argv);
      return 0;
    });
    unit(
        "noneops-by-link.service",
        "[Service]\nType=oneshot\nExecStart=/usr/sbin/noneops recover\n");

    assertThat(ports.systemd().start("noneops-by-link.service", T)).isEqualTo(JobResult.DONE);

    assertThat(ran).containsExactly(List.of("/usr/sbin/noneops", "recover"));
  }

  @Test
  void aProgramWhoseErrorEscapesItExitsWithStatusOne() {
    host.systemd().installProgram(AGENT, argv -> {
      throw new IOException("the journal cannot be read");
    });

    assertThat(ports.systemd().start(GATE, T)).isEqualTo(JobResult.FAILED);
    assertThat(ports.systemd().status(GATE).result()).isEqualTo("exit-code");
  }

  @Test
  void aUnitThatRequiresTheGateWithoutBeingOrderedAfterItDoesNotWaitForIt() {
    gateStatus = 1;
    List<ActiveState> containerdWhileTheGateRan = new ArrayList<>();
    host.systemd().installProgram(AGENT, argv -> {
      containerdWhileTheGateRan.add(ports.systemd().status(CONTAINERD).active());
      return gateStatus;
    });

    assertThat(ports.systemd().start(CONTAINERD, T)).isEqualTo(JobResult.DONE);

    assertThat(containerdWhileTheGateRan).containsExactly(ActiveState.ACTIVE);
    assertThat(ports.systemd().status(GATE).active()).isEqualTo(ActiveState.FAILED);
    assertThat(ports.systemd().status(CONTAINERD).active()).isEqualTo(ActiveState.ACTIVE);
  }

  @Test
  void aProgramMayReloadSystemdWhileItsUnitStarts() throws IOException {
    List<String> seen = new ArrayList<>();
    host.systemd().installProgram(AGENT, argv -> {
      seen.add(ports.systemd().status(GATE).active().toString());
      seen.add(ports.systemd().status(KUBELET).active().toString());
      ports
          .files()
          .writeDurably(
              UNITS.resolve("noneops-later.service"),
              "[Service]\nType=oneshot\nExecStart=/bin/true\n",
              0644);
      ports.systemd().daemonReload();
      seen.add(ports.systemd().status("noneops-later.service").load().toString());
      seen.add(ports.systemd().start(GATE, Duration.ofSeconds(1)).toString());
      return 0;
    });

    assertThat(ports.systemd().start(KUBELET, T)).isEqualTo(JobResult.DONE);

    assertThat(seen).containsExactly("ACTIVATING", "INACTIVE", "LOADED", "WAIT_TIMEOUT");
    assertThat(ports.systemd().status(GATE).sub()).isEqualTo("exited");
    UnitStatus kubelet = ports.systemd().status(KUBELET);
    assertThat(kubelet.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(host.ports().processes().get(kubelet.mainPid())).isPresent();
    assertThat(host.systemd().reloadCount()).isEqualTo(1);
  }

  @Test
  void bootRunsTheGateBeforeTheUnitsOrderedAfterIt() {
    List<List<String>> activeWhileTheGateRan = recordActiveUnitsWhileTheGateRuns();
    // cni-setup is only ordered After= the gate, kubelet requires it too; both sort before it
    ports.systemd().enable(List.of(CNI, KUBELET, GATE));
    host.crash();

    host.systemd().bootEnabledUnits();

    assertThat(activeWhileTheGateRan).containsExactly(List.of());
    assertThat(host.systemd().activeUnits()).containsExactly(CNI, KUBELET, GATE);
    assertThat(eventsOf(GATE, CNI, KUBELET))
        .containsExactly(
            GATE + " activating", GATE + " started", CNI + " started", KUBELET + " started");
  }

  @Test
  void bootHonoursTheGatesBeforeToo() {
    List<List<String>> activeWhileTheGateRan = recordActiveUnitsWhileTheGateRuns();
    ports.systemd().enable(List.of(LOCALDNS, GATE));
    host.crash();

    host.systemd().bootEnabledUnits();

    assertThat(activeWhileTheGateRan).containsExactly(List.of());
    assertThat(host.systemd().activeUnits()).containsExactly(LOCALDNS, GATE);
  }

  private List<List<String>> recordActiveUnitsWhileTheGateRuns() {
    List<List<String>> active = new ArrayList<>();
    host.systemd().installProgram(AGENT, argv -> {
      active.add(host.systemd().activeUnits());
      return 0;
    });
    return active;
  }

  @Test
  void aGateThatFailsAtBootKeepsTheUnitsOrderedAfterItDown() {
    gateStatus = 2;
    ports.systemd().enable(List.of(KUBELET, GATE));
    host.crash();

    host.systemd().bootEnabledUnits();

    assertThat(host.systemd().activeUnits()).isEmpty();
    assertThat(host.systemd().peek(GATE).active()).isEqualTo(ActiveState.FAILED);
    assertThat(host.systemd().peek(KUBELET).active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(eventsOf(KUBELET)).containsExactly(KUBELET + " dependency-failed");
  }

  @Test
  void aLongRunningServicesProgramIsItsStartUpAndItRunsOnWhenThatSucceeds() throws IOException {
    List<List<String>> started = new ArrayList<>();
    host.systemd().installProgram(Path.of("/usr/bin/localdns"), argv -> {
      started.add(argv);
      return started.size() == 1 ? 0 : 3;
    });

    assertThat(ports.systemd().start(LOCALDNS, T)).isEqualTo(JobResult.DONE);
    UnitStatus running = ports.systemd().status(LOCALDNS);
    assertThat(running.sub()).isEqualTo("running");
    assertThat(host.ports().processes().get(running.mainPid())).isPresent();

    assertThat(ports.systemd().restart(LOCALDNS, T)).isEqualTo(JobResult.FAILED);
    UnitStatus failed = ports.systemd().status(LOCALDNS);
    assertThat(failed.active()).isEqualTo(ActiveState.FAILED);
    assertThat(failed.result()).isEqualTo("exit-code");
    assertThat(failed.mainPid()).isZero();
    assertThat(started).hasSize(2);
  }
}
