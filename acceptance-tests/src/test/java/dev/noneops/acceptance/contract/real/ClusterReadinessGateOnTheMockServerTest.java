package dev.noneops.acceptance.contract.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.ReadinessGate;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.core.node.UpgradeResult;
import dev.noneops.kubernetes.KubernetesClusterNode;
import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The upgrade's readiness gate and version skew policy through the fabric8 adapter on fabric8's
 * mock API server: the simulated host's kubelet, when it starts, posts its Node (version, boot id,
 * Ready or not) and renews its Lease as the administrator's client.
 */
class ClusterReadinessGateOnTheMockServerTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.0.4", "blue");

  private final EvictionApiDispatcher dispatcher = new EvictionApiDispatcher();
  private final SimNode lab = new SimNode();
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private KubernetesClusterNode nodes;
  private boolean targetNeverReady;

  @BeforeEach
  void aNodeOnV1InAMockCluster() throws IOException {
    server = ClusterObjects.startServer(dispatcher);
    admin = server.createClient();
    nodes = KubernetesClusterNode.connect(
        KubernetesConnection.to(URI.create("http://127.0.0.1:" + server.getPort()))
            .withRequestTimeout(Duration.ofSeconds(5)));
    String node = lab.goal(V1).rootFs().hostname();
    String bootId = lab.host.ports().facts().bootId();
    lab.onKubeletStart(() -> {
      Map<String, String> kubeletOf =
          Map.of(lab.versionOf(V1), "v1.31.2", lab.versionOf(V2), "v1.31.3");
      String version = lab.activeVersionRaw().map(kubeletOf::get).orElse("");
      try {
        ClusterObjects.startKubelet(
            admin, node, version, bootId, !(targetNeverReady && version.equals("v1.31.3")));
      } catch (RuntimeException e) {
        // a kubelet that cannot reach the API server posts nothing, and runs on
      }
    });
    lab.bootstrap(V1);
    lab.publish(V2);
  }

  @AfterEach
  void stopCluster() {
    nodes.close();
    admin.close();
    server.destroy();
  }

  private UpgradeResult upgrade() {
    return lab.node(Params.builder(lab.host.ports())
            .config(V2)
            .previous(V1)
            .cluster(ClusterCheck.of(nodes).withReadyWithin(Duration.ofSeconds(30))))
        .upgrade();
  }

  @Test
  void aTargetTheClusterSeesReadyCommits() {
    UpgradeResult result = upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.CLUSTER);
    assertThat(lab.current()).contains(lab.versionOf(V2));
  }

  @Test
  void aTargetWhoseNodeNeverBecomesReadyRollsBackNamingTheCondition() {
    targetNeverReady = true;

    assertThatThrownBy(this::upgrade).isInstanceOfSatisfying(UpgradeFailedException.class, e -> {
      assertThat(e.outcome()).isEqualTo(RollbackOutcome.ROLLED_BACK);
      assertThat(e.getMessage())
          .contains("the cluster did not see the node Ready within 30s")
          .contains("Ready condition is False (KubeletNotReady)");
    });
    assertThat(lab.current()).contains(lab.versionOf(V1));
  }

  @Test
  void aKubeletNewerThanTheApiServerIsRefusedBeforeAnythingChanges() {
    dispatcher.serverVersion("v1.30.2");
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(this::upgrade)
        .isInstanceOfSatisfying(
            UpgradeRefusedException.class,
            e -> assertThat(e.getMessage())
                .contains("kubelet v1.31.3 is newer than the API server v1.30.2"));
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }

  @Test
  void anApiServerThatIsGoneBeforeTheSwitchGivesAHealthzOnlyUpgrade() {
    server.destroy();

    UpgradeResult result = upgrade();

    assertThat(result.gate().kind()).isEqualTo(ReadinessGate.Kind.HEALTHZ);
    assertThat(result.gate().detail()).startsWith("API server unreachable before the switch");
  }
}
