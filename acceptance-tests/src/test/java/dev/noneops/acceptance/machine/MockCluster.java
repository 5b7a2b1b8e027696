package dev.noneops.acceptance.machine;

import dev.noneops.acceptance.contract.real.ClusterObjects;
import dev.noneops.acceptance.contract.real.EvictionApiDispatcher;
import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.ports.cluster.PodOnNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
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
    server = ClusterObjects.startServer();
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
    ClusterObjects.registerNode(admin, node, true);
  }

  /**
   * {@code node}'s kubelet started: it registers its Node, ready, when there is none, and leaves an
   * existing one as it is (a restarted kubelet does not uncordon).
   */
  void kubeletStarted(String node) {
    if (admin.nodes().withName(node).get() == null) {
      registerNode(node);
    }
  }

  /** A ReplicaSet's pod with {@code labels} bound to {@code node}. */
  void bindPod(String node, String namespace, String name, Map<String, String> labels) {
    ClusterObjects.bindPod(admin, node, new PodOnNode(namespace, name, false, false), labels);
  }

  /** A PodDisruptionBudget whose status allows {@code allowed} disruptions. */
  void putBudget(String namespace, String name, Map<String, String> selector, int allowed) {
    ClusterObjects.putBudget(admin, namespace, name, selector, allowed);
  }

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
