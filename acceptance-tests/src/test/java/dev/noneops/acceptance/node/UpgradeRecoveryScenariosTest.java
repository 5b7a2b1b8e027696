package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.CorruptStateException;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.core.node.internal.files.SavedConfiguration;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The decisions of recovery, commit and the upgrade's preconditions, one situation at a time. */
class UpgradeRecoveryScenariosTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");
  private static final AgentConfig V1_RELABELLED = SimNode.config("1.31.2", "2.0.4", "red");

  private SimNode lab;
  private Map<String, String> before;

  @BeforeEach
  void runningNodeOnV1() {
    lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    before = lab.sharedFiles();
  }

  @Test
  void withoutAJournalRecoveryDoesNothingButDropAnOrphanedSnapshot() throws IOException {
    new SavedConfiguration(lab.host.ports().files(), lab.layout, lab.paths)
        .save(java.util.List.of(lab.paths.containerdConfig()));

    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.NOTHING_TO_DO);
    assertThat(result.staleRemoved()).contains(lab.layout.confsnap());
    assertThat(lab.exists(lab.layout.confsnap())).isFalse();
    assertThat(lab.sharedFiles()).isEqualTo(before);
  }

  @Test
  void aFinishedAndPersistedUpgradeIsCommittedAndStarted() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.persistApplied(V2);
    lab.host.crash();

    RecoveryResult result = lab.node(V2).recoverUpgrade(V2);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.COMMITTED);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.stackActive()).isTrue();
    assertThat(lab.exists(lab.layout.journal())).isFalse();
  }

  @Test
  void aFinishedUpgradeTheCallerDidNotPersistIsRolledBack() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();

    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.sharedFiles()).isEqualTo(before);
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aConfigurationOnlyUpgradeIsDecidedByTheDigestNotTheVersionName() {
    lab.node(V1_RELABELLED, Optional.of(V1)).upgrade();
    assertThat(lab.activeVersionRaw())
        .as("same binaries, same version name")
        .contains(lab.versionOf(V1));

    RecoveryResult result = lab.node(V1).recoverUpgrade(V1);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.ROLLED_BACK);
    assertThat(lab.sharedFiles()).isEqualTo(before);
  }

  @Test
  void aCommitInterruptedBetweenItsRemovalsIsFinishedByRecovery() throws IOException {
    Node node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.persistApplied(V2);
    new SavedConfiguration(lab.host.ports().files(), lab.layout, lab.paths).drop();
    lab.host.crash();

    RecoveryResult result = lab.node(V2).recoverUpgrade(V2);

    assertThat(result.outcome()).isEqualTo(RecoveryResult.Outcome.COMMITTED);
    assertThat(lab.exists(lab.layout.journal())).isFalse();
  }

  @Test
  void aCorruptJournalStopsRecoveryWithAnErrorNamingItAndChangesNothing() throws IOException {
    lab.host.fs().seedFile(lab.layout.journal(), "garbage", 0600);
    FileTreeSnapshot tree = lab.host.snapshot();

    assertThatThrownBy(() -> lab.node(V1).recoverUpgrade(V1))
        .isInstanceOf(CorruptStateException.class)
        .hasMessageContaining(lab.layout.journal().toString());
    assertThat(lab.host.snapshot().diff(tree)).isEmpty();
  }

  @Test
  void commitRefusesAnUpgradeThatDidNotSwitch() throws IOException {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.fs().seedSymlink(lab.layout.current(), lab.versionOf(V1));

    assertThatThrownBy(() -> lab.node(V2).commit())
        .hasMessageContaining("did not finish, run recoverUpgrade");
    assertThat(lab.exists(lab.layout.journal())).isTrue();
  }

  @Test
  void anUpgradeInFlightMustBeRecoveredOrCommittedFirst() {
    lab.node(V2, Optional.of(V1)).upgrade();

    assertThatThrownBy(() -> lab.node(V1_RELABELLED, Optional.of(V2)).upgrade())
        .isInstanceOf(UpgradeRefusedException.class)
        .hasMessageContaining("run recoverUpgrade (or commit) first");
  }

  @Test
  void aDamagedPreviousVersionRefusesTheUpgradeBeforeAnythingChanged() throws IOException {
    Path kubelet = lab.layout.binDir(lab.versionOf(V1)).resolve("kubelet");
    lab.host.fs().seedFile(kubelet, "tampered", 0755);

    assertThatThrownBy(() -> lab.node(V2, Optional.of(V1)).upgrade())
        .isInstanceOf(UpgradeRefusedException.class)
        .hasMessageContaining("a rollback could not be proven possible")
        .hasMessageContaining("kubelet");
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.sharedFiles()).isEqualTo(before);
    assertThat(lab.exists(lab.layout.journal())).isFalse();
    assertThat(lab.stackActive()).isTrue();
  }
}
