package dev.noneops.acceptance.machine;

import dev.noneops.acceptance.contract.real.EvictionApiDispatcher;
import dev.noneops.kubernetes.KubernetesConnection;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A cluster for the daemon's scenarios on the real adapters: fabric8's mock API server in CRUD
 * mode serving the Machine CRD, with the Eviction API added ({@link EvictionApiDispatcher}: CRUD
 * mode has neither evictions nor budget accounting), and an administrator's client that acts as
 * kubelet, the scheduler and the fleet's operator.
 */
final class MockCluster implements AutoCloseable {
  private final KubernetesMockServer server;
  final KubernetesClient admin;

  MockCluster() {
    server = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new EvictionApiDispatcher(), false);
    server.init();
    admin = server.createClient();
    try (InputStream yaml =
        getClass().getResourceAsStream("/kubernetes/machines.unbounded-cloud.io.yaml")) {
      CustomResourceDefinition crd =
          admin.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
      admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How the node reaches this cluster. */
  KubernetesConnection connection() {
    return KubernetesConnection.to(URI.create("http://127.0.0.1:" + server.getPort()))
        .withRequestTimeout(Duration.ofSeconds(5))
        .withWatchRetryDelay(Duration.ofMillis(50));
  }

  /** Kubelet registers {@code node}, ready. */
  void registerNode(String node) {
    admin
        .nodes()
        .resource(new NodeBuilder()
            .withNewMetadata()
            .withName(node)
            .endMetadata()
            .withNewStatus()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .endCondition()
            .endStatus()
            .build())
        .create();
  }

  /** A ReplicaSet's pod with {@code labels} bound to {@code node}. */
  void bindPod(String node, String namespace, String name, Map<String, String> labels) {
    admin
        .pods()
        .resource(new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .withLabels(labels)
            .addNewOwnerReference()
            .withApiVersion("apps/v1")
            .withKind("ReplicaSet")
            .withName("rs")
            .withUid("rs-uid")
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .endContainer()
            .endSpec()
            .build())
        .create();
  }

  /** A PodDisruptionBudget whose status allows {@code allowed} disruptions. */
  void putBudget(String namespace, String name, Map<String, String> selector, int allowed) {
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

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
