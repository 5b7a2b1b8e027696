package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.DownloadOverrides;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.FaultRule;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An upgrade that changes only where an artifact is downloaded from ({@code Params.downloads})
 * installs a version of another name; recovery must tell it apart from the applied configuration
 * as it tells any other upgrade, or a crash after the flip commits a version kubelet never proved.
 */
class DownloadsOnlyUpgradeRecoveryTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  /** containerd from a mirror: the same versions, another origin. */
  private static final DownloadOverrides MIRROR = new DownloadOverrides(
      AgentConfig.Download.NONE,
      new AgentConfig.Download("https://mirror.example.com/containerd", "", ""),
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE,
      AgentConfig.Download.NONE);
  /** V1 with the mirror written into its own {@code Downloads}: what the node installs with the overrides. */
  private static final AgentConfig V1_MIRRORED = V1.withDownloads(MIRROR.over(V1.downloads()));

  private SimNode lab;
  private Map<String, String> before;
  private String target;

  @BeforeEach
  void runningNodeOnV1() {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V1_MIRRORED);
    before = lab.sharedFiles();
    target = lab.versionOf(V1_MIRRORED);
    assertThat(target)
        .as("the download origin is part of the version name")
        .isNotEqualTo(lab.versionOf(V1));
  }

  @Test
  void aDownloadsOnlyUpgradeInterruptedAfterTheFlipIsRolledBackNotCommitted() {
    FaultRule powerCut = lab.host
        .faults()
        .add(FaultRule.when(call -> SimNode.startsUnit(call, "kubelet.service")
                && lab.activeVersionRaw().filter(target::equals).isPresent())
            .failWith(
                call -> new SimulatedCrash("power lost while the target's kubelet starts", 0)));
    assertThatThrownBy(() -> lab.node(V1, Optional.of(V1), MIRROR).upgrade())
        .isInstanceOf(SimulatedCrash.class);
    assertThat(powerCut.fired()).isEqualTo(1);
    lab.host.faults().clear();
    lab.host.crash();
    assertThat(lab.activeVersionRaw()).as("the flip was durable").contains(target);

    RecoveryResult result =
        lab.node(V1, Optional.empty(), MIRROR).recoverUpgrade(lab.applied().orElseThrow());

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.sharedFiles()).isEqualTo(before);
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aDownloadsOnlyUpgradeRecordedWithItsDownloadsIsCommitted() {
    lab.node(V1, Optional.of(V1), MIRROR).upgrade();
    lab.persistApplied(V1_MIRRORED);
    lab.host.crash();

    RecoveryResult result =
        lab.node(V1, Optional.empty(), MIRROR).recoverUpgrade(lab.applied().orElseThrow());

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.COMMITTED);
    assertThat(lab.activeVersionRaw()).contains(target);
    assertThat(lab.exists(lab.layout.journal())).isFalse();
  }
}
