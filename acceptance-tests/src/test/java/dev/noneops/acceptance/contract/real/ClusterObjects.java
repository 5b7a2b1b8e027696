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
    return startServer(new EvictionApiDispatcher());
  }

  /** {@link #startServer()} with {@code dispatcher}, which the caller keeps (to set the server's version). */
  public static KubernetesMockServer startServer(EvictionApiDispatcher dispatcher) {
    KubernetesMockServer s = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
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

  /**
   * Kubelet {@code version} starts on the boot {@code bootId}: creates or replaces its Node with
   * its version, boot id and Ready condition (heartbeat now), and renews its Lease now.
   */
  public static void startKubelet(
      KubernetesClient admin, String node, String version, String bootId, boolean ready) {
    String now = java.time.format.DateTimeFormatter.ISO_INSTANT.format(
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    admin
        .nodes()
        .resource(new NodeBuilder()
            .withNewMetadata()
            .withName(node)
            .endMetadata()
            .withNewStatus()
            .withNewNodeInfo()
            .withKubeletVersion(version)
            .withBootID(bootId)
            .endNodeInfo()
            .addNewCondition()
            .withType("Ready")
            .withStatus(ready ? "True" : "False")
            .withReason(ready ? "KubeletReady" : "KubeletNotReady")
            .withLastHeartbeatTime(now)
            .endCondition()
            .endStatus()
            .build())
        .createOr(existing -> existing.update());
    admin
        .leases()
        .inNamespace("kube-node-lease")
        .resource(new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
            .withNewMetadata()
            .withNamespace("kube-node-lease")
            .withName(node)
            .endMetadata()
            .withNewSpec()
            .withHolderIdentity(node)
            .withRenewTime(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC))
            .endSpec()
            .build())
        .createOr(existing -> existing.update());
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
