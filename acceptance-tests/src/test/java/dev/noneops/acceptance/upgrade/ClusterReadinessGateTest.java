package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.acceptance.machine.ClusterNodeDelegate;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.ReadinessGate;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.core.node.UpgradeResult;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.machine.SimClusterApi;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An upgrade's readiness gate with the cluster's view, on the simulated host and the simulated
 * cluster: kubelet's healthz, then the Node Ready with the target's kubelet version, this boot's
 * id and a heartbeat newer than the switch; the version skew policy checked before anything
 * changes; kubelet's healthz alone, said so, when the API server cannot be reached before.
 */
class ClusterReadinessGateTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.0.4", "blue");

  private final SimNode lab = new SimNode();
  private final SimClusterApi cluster = new SimClusterApi(() -> lab.host.clock().now());
  private String node;
  /** The boot id kubelet posts; this boot's unless a test says otherwise. */
  private String postedBootId;

  @BeforeEach
  void bootstrapV1() throws IOException {
    node = lab.goal(V1).rootFs().hostname();
    postedBootId = lab.host.ports().facts().bootId();
    Map<String, String> kubeletOf =
        Map.of(lab.versionOf(V1), "v1.31.2", lab.versionOf(V2), "v1.31.3");
    lab.onKubeletStart(() -> cluster.kubeletStarted(
        node, lab.activeVersionRaw().map(kubeletOf::get).orElse(""), postedBootId));
    lab.bootstrap(V1);
    lab.publish(V2);
  }

  private UpgradeResult upgrade() {
    return lab.node(Params.builder(lab.host.ports())
            .config(V2)
            .previous(V1)
            .cluster(ClusterCheck.of(cluster.client())))
        .upgrade();
  }

  @Test
  void aTargetTheClusterSeesReadyCommitsThroughTheClusterGate() {
    UpgradeResult result = upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.CLUSTER);
    assertThat(result.gate().detail()).contains("Ready").contains("v1.31.3");
    assertThat(lab.current()).contains(lab.versionOf(V2));
    assertThat(cluster.nodeReadiness(node).orElseThrow().kubeletVersion()).isEqualTo("v1.31.3");
  }

  @Test
  void aTargetWhoseKubeletAnswersHealthzButNeverBecomesReadyRollsBackNamingTheCondition() {
    cluster.kubeletNeverReady(node, true);

    assertThatThrownBy(this::upgrade).isInstanceOfSatisfying(UpgradeFailedException.class, e -> {
      assertThat(e.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
      assertThat(e.getMessage())
          .contains("the cluster did not see the node Ready within 5m")
          .contains("Ready condition is False");
    });
    assertThat(lab.current()).contains(lab.versionOf(V1));
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aNodeThatReportsAnotherBootRollsBackNamingTheBootId() {
    postedBootId = "00000000-0000-0000-0000-000000000000";

    assertThatThrownBy(this::upgrade).isInstanceOfSatisfying(UpgradeFailedException.class, e -> {
      assertThat(e.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
      assertThat(e.getMessage()).contains("reports boot id " + postedBootId);
    });
    assertThat(lab.current()).contains(lab.versionOf(V1));
  }

  @Test
  void anApiServerDownBeforeTheSwitchGivesAHealthzOnlyUpgradeThatSaysSo() {
    cluster.unreachable(true);

    UpgradeResult result = upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.HEALTHZ);
    assertThat(result.gate().detail()).contains("API server unreachable before the switch");
    assertThat(lab.current()).contains(lab.versionOf(V2));
  }

  @Test
  void credentialsThatMayNotReadTheNodeGiveAHealthzOnlyUpgradeThatSaysSo() {
    ClusterNode bootstrapTokenOnly = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public Optional<NodeReadiness> readiness(String name) throws IOException {
        throw new ClusterNodeException(
            ClusterNodeException.Kind.FORBIDDEN,
            name,
            "nodes \"" + name + "\" is forbidden: User \"system:bootstrap:abcdef\" cannot get"
                + " resource \"nodes\"");
      }
    };

    UpgradeResult result = lab.node(Params.builder(lab.host.ports())
            .config(V2)
            .previous(V1)
            .cluster(ClusterCheck.of(bootstrapTokenOnly)))
        .upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.HEALTHZ);
    assertThat(result.gate().detail()).contains("may not read the Node " + node);
    assertThat(lab.current()).contains(lab.versionOf(V2));
  }

  @Test
  void anApiServerLostWhileTheTargetIsPreparedGivesAHealthzOnlyUpgradeThatSaysSo() {
    ClusterNode lostAfterTheVersionCheck = new ClusterNodeDelegate(cluster.client()) {
      @Override
      public Optional<NodeReadiness> readiness(String name) throws IOException {
        throw new ClusterNodeException(
            ClusterNodeException.Kind.UNREACHABLE, name, "connection refused");
      }
    };

    UpgradeResult result = lab.node(Params.builder(lab.host.ports())
            .config(V2)
            .previous(V1)
            .cluster(ClusterCheck.of(lostAfterTheVersionCheck)))
        .upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.HEALTHZ);
    assertThat(result.gate().detail()).startsWith("API server unreachable before the switch");
    assertThat(lab.current()).contains(lab.versionOf(V2));
  }

  @Test
  void withoutClusterCredentialsTheGateIsHealthzAlone() {
    UpgradeResult result = lab.node(V2, Optional.of(V1)).upgrade();

    assertThat(result.gate()).isEqualTo(ReadinessGate.NO_CREDENTIALS);
  }

  @Test
  void anApiServerThatGoesAwayDuringTheWaitRollsBackAtTheBoundNamingIt() {
    lab.onKubeletStart(() -> {
      if (lab.activeVersionRaw().filter(lab.versionOf(V2)::equals).isPresent()) {
        cluster.unreachable(true);
      }
    });

    assertThatThrownBy(this::upgrade).isInstanceOfSatisfying(UpgradeFailedException.class, e -> {
      assertThat(e.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
      assertThat(e.getMessage()).contains("API server unreachable during the wait");
    });
    assertThat(lab.current()).contains(lab.versionOf(V1));
  }

  @Test
  void anApplyThatRestartsKubeletFailsWhenTheClusterNeverSeesTheNodeReadyAndRecordsNothing() {
    AgentConfig green = SimNode.config("1.31.2", "2.0.4", "green");
    cluster.kubeletNeverReady(node, true);

    assertThatThrownBy(() -> lab.node(Params.builder(lab.host.ports())
                .config(green)
                .cluster(ClusterCheck.of(cluster.client())))
            .apply())
        .hasMessageContaining("the cluster did not see the node Ready within 5m")
        .hasMessageContaining("Ready condition is False");
    assertThat(lab.applied()).contains(V1);

    cluster.kubeletNeverReady(node, false);
    lab.node(Params.builder(lab.host.ports())
            .config(green)
            .cluster(ClusterCheck.of(cluster.client())))
        .apply();
    assertThat(lab.applied()).contains(green);
  }

  @Test
  void aKubeletNewerThanTheApiServerIsRefusedBeforeAnythingChanges() {
    cluster.serverVersion("v1.30.9");
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(this::upgrade).isInstanceOfSatisfying(UpgradeRefusedException.class, e -> {
      assertThat(e.reason()).isEqualTo(UpgradeRefusedException.Reason.VERSION_SKEW);
      assertThat(e.getMessage())
          .contains("kubelet v1.31.3")
          .contains("API server v1.30.9")
          .contains("version skew policy")
          .doesNotContain("\n");
    });
    assertThat(lab.host.snapshot()).isEqualTo(before);
    assertThat(lab.current()).contains(lab.versionOf(V1));
  }

  @Test
  void aKubeletMoreThanThreeMinorVersionsOlderIsRefusedAndTheOverrideLetsItThrough() {
    cluster.serverVersion("v1.35.0");
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(this::upgrade)
        .isInstanceOfSatisfying(
            UpgradeRefusedException.class,
            e -> assertThat(e.getMessage())
                .contains("more than 3 minor versions older than the API server v1.35.0"));
    assertThat(lab.host.snapshot()).isEqualTo(before);

    UpgradeResult result = lab.node(Params.builder(lab.host.ports())
            .config(V2)
            .previous(V1)
            .cluster(ClusterCheck.of(cluster.client()).ignoringVersionSkew(true)))
        .upgrade();
    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.CLUSTER);
  }
}
