package dev.noneops.acceptance.contract.real;

import dev.noneops.ports.cluster.PodOnNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;
import java.util.Map;

/**
 * The cluster's side of the Kubernetes adapters' tests on fabric8's mock server: the server, and
 * the objects kubelet, the scheduler and an operator would make there (Nodes, pods, budgets).
 */
public final class ClusterObjects {
  private ClusterObjects() {}

  /** fabric8's mock API server in CRUD mode with the Eviction API added ({@link EvictionApiDispatcher}), started. */
  public static KubernetesMockServer startServer() {
    KubernetesMockServer s = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new EvictionApiDispatcher(), false);
    s.init();
    return s;
  }

  /** Kubelet registers {@code node}, Ready or not. */
  public static void registerNode(KubernetesClient admin, String node, boolean ready) {
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

  /** The scheduler binds {@code pod} to {@code node}: a ReplicaSet's, a DaemonSet's or a mirror pod. */
  public static void bindPod(
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

  /** An operator's PodDisruptionBudget whose status allows {@code allowed} disruptions. */
  public static void putBudget(
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
