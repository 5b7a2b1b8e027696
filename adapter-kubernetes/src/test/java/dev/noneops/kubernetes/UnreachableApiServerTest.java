package dev.noneops.kubernetes;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.machine.MachineResourceException;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * An API server the node cannot reach is named with what went wrong (the host that does not
 * resolve, the connection refused), not with fabric8's bare "An error has occurred.": that line
 * is what an operator reads beside an upgrade that fell back to kubelet's healthz alone.
 */
class UnreachableApiServerTest {

  @Test
  void aHostThatDoesNotResolveIsNamed() {
    KubernetesClusterNode cluster = KubernetesClusterNode.connect(
        KubernetesConnection.to(URI.create("https://no-such-api-server.invalid:6443")));

    assertThatThrownBy(cluster::serverVersion)
        .isInstanceOf(ClusterNodeException.class)
        .hasMessageContaining("no-such-api-server.invalid")
        .hasMessageNotContaining("An error has occurred");
  }

  @Test
  void aRefusedConnectionIsNamed() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    KubernetesClusterNode cluster = KubernetesClusterNode.connect(
        KubernetesConnection.to(URI.create("https://127.0.0.1:" + port)));

    assertThatThrownBy(cluster::serverVersion)
        .isInstanceOf(ClusterNodeException.class)
        .hasMessageContaining("cannot connect to the API server https://127.0.0.1:" + port)
        .hasMessageNotContaining("An error has occurred");
  }

  @Test
  void theMachineResourceNamesTheApiServerItCannotReachToo() {
    try (KubernetesMachineResource machines = KubernetesMachineResource.connect(
        KubernetesConnection.to(URI.create("https://no-such-api-server.invalid:6443")))) {
      assertThatThrownBy(() -> machines.get("worker-1"))
          .isInstanceOf(MachineResourceException.class)
          .hasMessageContaining(
              "cannot resolve the host of the API server https://no-such-api-server.invalid:6443")
          .hasMessageNotContaining("An error has occurred");
    }
  }
}
