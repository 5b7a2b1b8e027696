package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.daemon.AgentState;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.testkit.fixtures.node.BootLog;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node with its agent that loses power boots as systemd boots it: the recovery gate's unit runs
 * {@code noneops recover --at-boot} to its end before any of the stack's units starts, and the
 * stack comes up on what the gate made consistent, or stays down when the gate fails.
 */
class BootThroughTheGateTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final String GATE = HostPaths.RECOVERY_GATE_UNIT;
  private static final List<String> STACK = SimNode.STACK;

  private SimNode lab;

  @BeforeEach
  void aNodeOnV1WithItsAgent() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
  }

  @Test
  void afterACutRightAfterTheFlipTheGateRunsFirstRollsBackAndTheStackComesUpOnThePreviousVersion() {
    lab.upgradeCutRightAfterTheFlip(V1, V2);

    BootLog boot = lab.powerCutAndBoot();

    List<String> events = boot.of(gateAndStack());
    assertThat(events).hasSize(5);
    assertThat(events.subList(0, 2)).containsExactly(GATE + " activating", GATE + " started");
    assertThat(events.subList(2, 4))
        .as("LocalDNS and containerd, in either order: neither is ordered after the other")
        .containsExactlyInAnyOrder("localdns.service started", "containerd.service started");
    assertThat(events.get(4)).isEqualTo("kubelet.service started");
    assertThat(lab.gateJournal()).last().asString().contains("rolled back to " + lab.versionOf(V1));
    assertThat(bootRecovery().outcome()).isEqualTo("ROLLED_BACK");
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    for (String unit : STACK) {
      assertThat(lab.runningVersion(unit)).as(unit).contains(lab.versionOf(V1));
    }
  }

  @Test
  void aFinishedAndRecordedUpgradeIsCommittedAtBootAndTheStackComesUpOnTheTarget() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.persistApplied(V2);

    BootLog boot = lab.powerCutAndBoot();

    int gateEnded = boot.startEnded(GATE).orElseThrow();
    assertThat(boot.firstEventOf(STACK))
        .hasValueSatisfying(first -> assertThat(first)
            .as("the stack's first event, after the gate's start job ended: " + boot)
            .isGreaterThan(gateEnded));
    assertThat(bootRecovery().outcome()).isEqualTo("COMMITTED");
    assertThat(lab.exists(lab.layout.journal())).isFalse();
    for (String unit : STACK) {
      assertThat(lab.runningVersion(unit)).as(unit).contains(lab.versionOf(V2));
    }
  }

  @Test
  void aGateThatFailsKeepsEveryStackUnitDownWithResultDependencyAndIsFailedItself()
      throws IOException {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();
    lab.host.ports().files().removeDurably(lab.paths.appliedConfig());

    BootLog boot = lab.boot();

    assertThat(lab.host.systemd().peek(GATE).active()).isEqualTo(ActiveState.FAILED);
    assertThat(lab.host.systemd().peek(GATE).result()).isEqualTo("exit-code");
    for (String unit : STACK) {
      assertThat(boot.of(unit)).as(unit).containsExactly(unit + " dependency-failed");
      assertThat(lab.host.systemd().peek(unit).active()).as(unit).isEqualTo(ActiveState.INACTIVE);
      assertThat(lab.host.systemd().mainProcess(unit)).as(unit).isEmpty();
    }
    assertThat(lab.gateJournal())
        .last()
        .asString()
        .contains("is missing", "stack stays down", "noneops recover");
    assertThat(bootRecovery().outcome()).isEqualTo("FAILED");
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive())
        .as("the agent's daemon is only ordered after the gate, not bound to it: it runs, so that"
            + " status and the journal say why the stack is down")
        .isTrue();
  }

  @Test
  void aPowerCutDuringTheGateLeavesTheStackDownAndTheNextBootFinishesTheRollback() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();
    lab.host.faults().crashAtMutatingCall(3);

    assertThatThrownBy(lab::boot).isInstanceOf(SimulatedCrash.class);
    List<String> startedBeforeTheCut = new ArrayList<>(lab.host.systemd().activeUnits());
    BootLog boot = lab.powerCutAndBoot();

    assertThat(startedBeforeTheCut).doesNotContainAnyElementsOf(STACK);
    assertThat(boot.of(GATE)).containsExactly(GATE + " activating", GATE + " started");
    assertThat(bootRecovery().outcome()).isIn("ROLLED_BACK", "ROLLBACK_FINISHED");
    for (String unit : STACK) {
      assertThat(lab.runningVersion(unit)).as(unit).contains(lab.versionOf(V1));
    }
  }

  @Test
  void withNothingInFlightTheGateIsSkippedByItsConditionsAndTheStackComesBackOnItsVersion() {
    int gateRuns = lab.gateJournal().size();

    BootLog boot = lab.powerCutAndBoot();

    assertThat(boot.of(GATE))
        .as("no file of interrupted work: systemd skips the gate, no JVM starts")
        .containsExactly(GATE + " condition-failed");
    assertThat(lab.gateJournal()).hasSize(gateRuns);
    assertThat(lab.stackActive()).isTrue();
    for (String unit : STACK) {
      assertThat(boot.of(unit)).as(unit).containsExactly(unit + " started");
      assertThat(lab.runningVersion(unit)).as(unit).contains(lab.versionOf(V1));
    }
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive())
        .as("the agent's daemon, ordered after the gate")
        .isTrue();
  }

  /** Each kind of interrupted work the gate's conditions look for, as a crash leaves it. */
  enum InFlight {
    SAVED_CONFIGURATION_WITHOUT_JOURNAL,
    TEARDOWN,
    STAGING,
    VERSION_BEING_REMOVED,
    INTERRUPTED_WRITE_IN_THE_LAYOUT
  }

  @ParameterizedTest
  @EnumSource(InFlight.class)
  void withInterruptedWorkOnDiskTheGateRunsBeforeTheStack(InFlight work) throws IOException {
    Path left = leave(work);

    BootLog boot = lab.powerCutAndBoot();

    assertThat(boot.of(GATE)).containsExactly(GATE + " activating", GATE + " started");
    int gateEnded = boot.startEnded(GATE).orElseThrow();
    assertThat(boot.firstEventOf(STACK))
        .hasValueSatisfying(first -> assertThat(first)
            .as("the stack's first event, after the gate's start job ended: " + boot)
            .isGreaterThan(gateEnded));
    assertThat(bootRecovery().outcome()).isEqualTo("NOTHING_TO_DO");
    assertThat(lab.stackActive()).isTrue();
    if (work != InFlight.TEARDOWN) {
      assertThat(lab.exists(left)).as("the gate removed " + left).isFalse();
    }
  }

  private Path leave(InFlight work) throws IOException {
    Path root = lab.layout.root();
    Path left = switch (work) {
      case SAVED_CONFIGURATION_WITHOUT_JOURNAL -> lab.layout.confsnap();
      case TEARDOWN -> lab.layout.teardownMarker();
      case STAGING -> lab.layout.staging();
      case VERSION_BEING_REMOVED -> root.resolve(".removing-1.31.0-0123456789ab");
      case INTERRUPTED_WRITE_IN_THE_LAYOUT -> root.resolve(".noneops-tmp-current.0a1b2c3d");
    };
    synchronized (lab.host.monitor()) {
      if (work == InFlight.TEARDOWN || work == InFlight.INTERRUPTED_WRITE_IN_THE_LAYOUT) {
        lab.host.fs().seedFile(left, "left by a crash\n", 0600);
      } else {
        lab.host.fs().seedDirectory(left, 0700);
      }
      if (work == InFlight.STAGING) {
        // a download cut short: an empty staging directory is nothing in flight
        lab.host.fs().seedDirectory(left.resolve("1.31.5-0123456789ab"), 0700);
        lab.host
            .fs()
            .seedFile(left.resolve("1.31.5-0123456789ab/kubelet"), "half a download\n", 0600);
      }
    }
    return left;
  }

  private static List<String> gateAndStack() {
    List<String> units = new ArrayList<>(List.of(GATE));
    units.addAll(STACK);
    return units;
  }

  private AgentState.Event bootRecovery() {
    return AgentState.read(lab.host.ports().files(), lab.paths).bootRecovery().orElseThrow();
  }
}
