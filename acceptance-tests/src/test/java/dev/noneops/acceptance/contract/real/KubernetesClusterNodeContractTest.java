package dev.noneops.acceptance.contract.real;

import dev.noneops.kubernetes.KubernetesClusterNode;
import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.testkit.contract.ClusterNodeContract;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The Kubernetes adapter's drain calls against fabric8's mock API server in CRUD mode. CRUD mode
 * does not implement the Eviction API nor PodDisruptionBudget accounting: the server here is CRUD
 * mode with {@link EvictionApiDispatcher} answering evictions as the API server does (404, 429
 * from a budget allowing no disruption, else the pod deleted and the budget's allowance used).
 */
class KubernetesClusterNodeContractTest extends ClusterNodeContract {
  private final EvictionApiDispatcher dispatcher = new EvictionApiDispatcher();
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private KubernetesClusterNode resource;

  @BeforeEach
  void startCluster() {
    server = ClusterObjects.startServer(dispatcher);
    admin = server.createClient();
    resource = KubernetesClusterNode.connect(
        KubernetesConnection.to(URI.create("http://127.0.0.1:" + server.getPort()))
            .withRequestTimeout(Duration.ofSeconds(5)));
  }

  @AfterEach
  void stopCluster() {
    resource.close();
    admin.close();
    server.destroy();
  }

  @Override
  protected ClusterNode resource() {
    return resource;
  }

  @Override
  protected void registerNodeAsKubelet(String node, boolean ready) {
    ClusterObjects.registerNode(admin, node, ready);
  }

  @Override
  protected void bindPodAsScheduler(String node, PodOnNode pod, Map<String, String> labels) {
    ClusterObjects.bindPod(admin, node, pod, labels);
  }

  @Override
  protected void putBudgetAsOperator(
      String namespace, String name, Map<String, String> selector, int allowed) {
    ClusterObjects.putBudget(admin, namespace, name, selector, allowed);
  }

  @Override
  protected void startKubelet(String node, String version, String bootId, boolean ready) {
    ClusterObjects.startKubelet(admin, node, version, bootId, ready);
  }

  @Override
  protected void serverVersionIs(String gitVersion) {
    dispatcher.serverVersion(gitVersion);
  }

  @Override
  protected List<String> eventsAsOperator(String namespace) {
    return admin.events().v1().events().inNamespace(namespace).list().getItems().stream()
        .map(e -> e.getType() + " " + e.getReason() + " " + e.getRegarding().getKind() + "/"
            + e.getRegarding().getName() + " "
            + (e.getRelated() == null
                ? "-"
                : e.getRelated().getKind() + "/" + e.getRelated().getName())
            + ": " + e.getNote())
        .toList();
  }
}
