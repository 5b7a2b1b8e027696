package dev.noneops.acceptance.contract.real;

import dev.noneops.kubernetes.KubernetesClusterNode;
import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.testkit.contract.ClusterNodeContract;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
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
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private KubernetesClusterNode resource;

  @BeforeEach
  void startCluster() {
    server = startServer();
    admin = server.createClient();
    resource = KubernetesClusterNode.connect(
        KubernetesConnection.to(URI.create("http://127.0.0.1:" + server.getPort()))
            .withRequestTimeout(Duration.ofSeconds(5)));
  }

  static KubernetesMockServer startServer() {
    KubernetesMockServer s = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new EvictionApiDispatcher(), false);
    s.init();
    return s;
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
    registerNode(admin, node, ready);
  }

  static void registerNode(KubernetesClient admin, String node, boolean ready) {
    admin
        .nodes()
        .resource(new NodeBuilder()
            .withNewMetadata()
            .withName(node)
            .endMetadata()
            .withNewStatus()
            .addNewCondition()
            .withType("Ready")
            .withStatus(ready ? "True" : "False")
            .endCondition()
            .endStatus()
            .build())
        .create();
  }

  @Override
  protected void bindPodAsScheduler(String node, PodOnNode pod, Map<String, String> labels) {
    bindPod(admin, node, pod, labels);
  }

  static void bindPod(
      KubernetesClient admin, String node, PodOnNode pod, Map<String, String> labels) {
    PodBuilder builder = new PodBuilder()
        .withNewMetadata()
        .withNamespace(pod.namespace())
        .withName(pod.name())
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec();
    if (pod.daemonSetPod()) {
      builder
          .editMetadata()
          .addNewOwnerReference()
          .withApiVersion("apps/v1")
          .withKind("DaemonSet")
          .withName("ds")
          .withUid("ds-uid")
          .withController(true)
          .endOwnerReference()
          .endMetadata();
    } else if (pod.mirrorPod()) {
      builder
          .editMetadata()
          .addToAnnotations("kubernetes.io/config.mirror", "mirror-hash")
          .endMetadata();
    } else {
      builder
          .editMetadata()
          .addNewOwnerReference()
          .withApiVersion("apps/v1")
          .withKind("ReplicaSet")
          .withName("rs")
          .withUid("rs-uid")
          .withController(true)
          .endOwnerReference()
          .endMetadata();
    }
    admin.pods().resource(builder.build()).create();
  }

  @Override
  protected void putBudgetAsOperator(
      String namespace, String name, Map<String, String> selector, int allowed) {
    putBudget(admin, namespace, name, selector, allowed);
  }

  static void putBudget(
      KubernetesClient admin,
      String namespace,
      String name,
      Map<String, String> selector,
      int allowed) {
    PodDisruptionBudget created = admin
        .policy()
        .v1()
        .podDisruptionBudget()
        .resource(new PodDisruptionBudgetBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNewSelector()
            .withMatchLabels(selector)
            .endSelector()
            .endSpec()
            .build())
        .create();
    created.setStatus(new PodDisruptionBudgetStatusBuilder()
        .withDisruptionsAllowed(allowed)
        .withCurrentHealthy(1)
        .withDesiredHealthy(1)
        .withExpectedPods(1)
        .build());
    admin.policy().v1().podDisruptionBudget().resource(created).updateStatus();
  }
}
