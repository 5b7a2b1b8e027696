package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.RecoveryGate;
import dev.noneops.daemon.RecoveryGate.RecoveryGateException;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The recovery gate ({@code noneops recover --at-boot}) after a power cut: it makes the node
 * consistent with the applied configuration and starts nothing (systemd starts the stack after
 * it), and it keeps the stack down only when an interrupted upgrade cannot be finished.
 */
class RecoveryGateTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");

  private SimNode lab;
  private Map<String, String> v1Files;

  @BeforeEach
  void aNodeOnV1WithItsAgent() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2);
    v1Files = withoutAgentState(lab.sharedFiles());
  }

  private RecoveryGate gate() {
    return new RecoveryGate(
        lab.host.ports().files(),
        lab.layout,
        lab.paths,
        lab.host.ports().clock(),
        applied -> lab.node(applied, Optional.of(applied)));
  }

  @Test
  void aCutAfterTheFlipIsRolledBackBeforeTheStackStartsAndTheGateStartsNothing() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();

    RecoveryGate.Result result = gate().run();

    assertThat(result.outcome()).isEqualTo(RecoveryGate.Outcome.ROLLED_BACK);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(v1Files);
    assertThat(lab.host.systemd().activeUnits())
        .as("the gate starts nothing; systemd starts the stack after it")
        .isEmpty();
    lab.host.systemd().bootEnabledUnits();
    assertThat(lab.stackActive()).isTrue();
  }

  /** The node's files, less the agent's state (which records the gate's run). */
  private Map<String, String> withoutAgentState(Map<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.remove(lab.paths.agentState().toString());
    return out;
  }

  @Test
  void aFinishedAndRecordedUpgradeIsCommitted() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.persistApplied(V2);
    lab.host.crash();

    RecoveryGate.Result result = gate().run();

    assertThat(result.outcome()).isEqualTo(RecoveryGate.Outcome.COMMITTED);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.exists(lab.layout.journal())).isFalse();
  }

  @Test
  void withNothingInFlightItPassesEvenWhenTheAppliedConfigurationIsUnreadable() throws IOException {
    lab.host.crash();
    lab.host.fs().seedFile(lab.paths.appliedConfig(), "{ not json", 0600);

    RecoveryGate.Result result = gate().run();

    assertThat(result.outcome()).isEqualTo(RecoveryGate.Outcome.NOTHING_TO_DO);
    assertThat(result.line()).contains("unreadable", lab.paths.appliedConfig().toString());
  }

  @Test
  void anUpgradeInFlightWithoutAnAppliedConfigurationKeepsTheStackDownAndSaysWhatToRun()
      throws IOException {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();
    lab.host.ports().files().removeDurably(lab.paths.appliedConfig());
    FileTreeSnapshot before = lab.host.snapshot(lab.layout.root());

    assertThatThrownBy(() -> gate().run())
        .isInstanceOf(RecoveryGateException.class)
        .hasMessageContaining(
            "applied configuration at " + lab.paths.appliedConfig() + " is missing")
        .hasMessageContaining("stack stays down")
        .hasMessageContaining("noneops reset");
    assertThat(lab.host.snapshot(lab.layout.root()).diff(before)).isEmpty();
    assertThat(AgentState.read(lab.host.ports().files(), lab.paths).bootRecovery())
        .hasValueSatisfying(e -> assertThat(e.outcome()).isEqualTo("FAILED"));
  }

  @Test
  void onALiveNodeWhoseLockIsHeldItPassesAndChangesNothing() throws IOException {
    lab.node(V2, Optional.of(V1)).upgrade();
    FileTreeSnapshot before = lab.host.snapshot(lab.layout.root());
    try (HostLock held = lab.host.ports().files().tryLock(lab.layout.lock()).orElseThrow()) {
      RecoveryGate.Result result = gate().run();

      assertThat(result.outcome()).isEqualTo(RecoveryGate.Outcome.LIVE_NODE);
    }
    assertThat(lab.host.snapshot(lab.layout.root()).diff(before)).isEmpty();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
  }

  @Test
  void eachRunIsRecordedForStatus() {
    RecoveryGate.Result result = gate().run();

    AgentState state = AgentState.read(lab.host.ports().files(), lab.paths);
    assertThat(state.bootRecovery()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo(result.outcome().name());
      assertThat(e.detail()).isEqualTo(result.line());
    });
  }
}
