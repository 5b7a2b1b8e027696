package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.testkit.contract.ClusterNodeContract;
import dev.noneops.testkit.machine.SimClusterApi;
import java.util.List;
import java.util.Map;

class SimulatedClusterNodeContractTest extends ClusterNodeContract {
  private final SimClusterApi api = new SimClusterApi();
  private final ClusterNode resource = api.client();

  @Override
  protected ClusterNode resource() {
    return resource;
  }

  @Override
  protected void registerNodeAsKubelet(String node, boolean ready) {
    api.registerNode(node);
    api.setReady(node, ready);
  }

  @Override
  protected void bindPodAsScheduler(String node, PodOnNode pod, Map<String, String> labels) {
    api.bindPod(node, pod, labels);
  }

  @Override
  protected void putBudgetAsOperator(
      String namespace, String name, Map<String, String> selector, int allowed) {
    api.putBudget(namespace, name, selector, allowed);
  }

  @Override
  protected void startKubelet(String node, String version, String bootId, boolean ready) {
    api.kubeletNeverReady(node, !ready);
    api.kubeletStarted(node, version, bootId);
  }

  @Override
  protected void serverVersionIs(String gitVersion) {
    api.serverVersion(gitVersion);
  }

  @Override
  protected List<String> eventsAsOperator(String namespace) {
    return api.events().stream()
        .filter(e -> e.namespace().equals(namespace))
        .map(e -> e.type().wire() + " " + e.reason() + " " + e.regarding().kind() + "/"
            + e.regarding().name() + " "
            + e.related().map(r -> r.kind() + "/" + r.name()).orElse("-") + ": " + e.note())
        .toList();
  }
}
