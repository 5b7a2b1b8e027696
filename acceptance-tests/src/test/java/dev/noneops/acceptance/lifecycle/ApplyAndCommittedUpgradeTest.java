package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeAndCommitResult;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.core.node.VersionChangeRefusedException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The use cases an operator's CLI and an embedding agent share: {@code apply} (reconfigure in
 * place) and the committed upgrade (upgrade, record, commit, prune), each one core operation.
 */
class ApplyAndCommittedUpgradeTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "1.7.22", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "1.7.22", "blue");

  @Test
  void applyRestartsOnlyWhatChangedAndRecordsTheConfigurationAsApplied() {
    SimNode lab = new SimNode();
    lab.bootstrap(SimNode.config(Map.of("example.com/pool", "blue")));
    AgentConfig green = SimNode.config(Map.of("example.com/pool", "green"));

    ApplyResult result = lab.node(green).apply();

    assertThat(result.changes()).isEqualTo(new ConfigureResult(false, true, false));
    assertThat(result.wasRunning()).isTrue();
    assertThat(result.running()).isTrue();
    assertThat(result.version()).isEqualTo(lab.versionOf(green));
    assertThat(lab.applied()).contains(green);
  }

  @Test
  void applyOfAConfigurationThatNeedsOtherBinariesIsRefusedWithTheAdviceAndChangesNothing() {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    FileTreeSnapshot before = lab.host.snapshot();

    VersionChangeRefusedException refused = catchThrowableOfType(
        VersionChangeRefusedException.class, () -> lab.node(V2).apply());

    assertThat(refused.wanted()).isEqualTo(lab.versionOf(V2));
    assertThat(refused.active()).isEqualTo(lab.versionOf(V1));
    assertThat(refused)
        .hasMessageContaining("run 'noneops upgrade'")
        .hasMessageContaining("nothing was changed");
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }

  @Test
  void aCommittedUpgradeRecordsTheConfigurationEndsTheUpgradeAndPrunesThePreviousVersion() {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);

    UpgradeAndCommitResult done =
        lab.node(V2, Optional.of(V1)).upgradeAndCommit(UpgradeOptions.DEFAULTS);

    assertThat(done.upgrade().previousVersion()).isEqualTo(lab.versionOf(V1));
    assertThat(done.upgrade().targetVersion()).isEqualTo(lab.versionOf(V2));
    assertThat(done.pruned())
        .hasValueSatisfying(p -> assertThat(p.removed()).containsExactly(lab.versionOf(V1)));
    assertThat(lab.applied()).contains(V2);
    assertThat(lab.exists(lab.layout.journal())).as("the upgrade is committed").isFalse();
    assertThat(lab.exists(lab.layout.versionDir(lab.versionOf(V1)))).isFalse();
    assertThat(lab.current()).contains(lab.versionOf(V2));
  }

  @Test
  void aCommittedUpgradeWithoutPruneKeepsThePreviousVersion() {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);

    UpgradeAndCommitResult done =
        lab.node(V2, Optional.of(V1)).upgradeAndCommit(new UpgradeOptions(false, false));

    assertThat(done.pruned()).isEmpty();
    assertThat(lab.applied()).contains(V2);
    assertThat(lab.exists(lab.layout.journal())).isFalse();
    assertThat(lab.exists(lab.layout.versionDir(lab.versionOf(V1)))).isTrue();
  }

  @Test
  void bothAreRefusedAsBusyWhileAnotherProcessHoldsTheNodeLockAndChangeNothing()
      throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    FileTreeSnapshot before = lab.host.snapshot();

    try (var otherProcess = lab.host.ports().files().tryLock(lab.layout.lock()).orElseThrow()) {
      for (ThrowingCallable operation : List.<ThrowingCallable>of(
          () -> lab.node(V1).apply(),
          () -> lab.node(V2, Optional.of(V1)).upgradeAndCommit(UpgradeOptions.DEFAULTS))) {
        NodeBusyException busy = catchThrowableOfType(NodeBusyException.class, operation);

        assertThat(busy).hasMessageContaining(lab.layout.lock().toString());
      }
    }
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }
}
