package dev.noneops.acceptance.contract.real;

import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.kubernetes.KubernetesMachineResource;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.testkit.contract.MachineResourceContract;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The Kubernetes adapter against fabric8's mock API server in CRUD mode serving the Machine CRD (no
 * package on these machines ships a kube-apiserver). The adapter reaches the server through a TCP
 * relay the test can cut, so a lost watch is a lost connection; the other clients of the cluster
 * talk to the server directly.
 */
class KubernetesMachineResourceContractTest extends MachineResourceContract {
  private static final ResourceDefinitionContext MACHINES = new ResourceDefinitionContext.Builder()
      .withGroup("unbounded-cloud.io")
      .withVersion("v1alpha3")
      .withKind("Machine")
      .withPlural("machines")
      .withNamespaced(false)
      .build();

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient admin;
  private TcpRelay relay;
  private KubernetesMachineResource resource;
  private KubernetesMachineResource other;

  @BeforeEach
  void startCluster() throws IOException {
    server = startServer();
    admin = server.createClient();
    toClose.add(admin);
    try (InputStream yaml =
        getClass().getResourceAsStream("/kubernetes/machines.unbounded-cloud.io.yaml")) {
      CustomResourceDefinition crd =
          admin.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
      admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    }
    relay = new TcpRelay(server.getPort());
    toClose.add(relay);
    resource = connect(relay.port());
    other = connect(server.getPort());
  }

  @AfterEach
  void stopCluster() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
    for (KubernetesMockServer s : servers) {
      s.destroy();
    }
  }

  private final List<KubernetesMockServer> servers = new ArrayList<>();

  private KubernetesMockServer startServer() {
    KubernetesMockServer s = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
    s.init();
    servers.add(s);
    return s;
  }

  private KubernetesMachineResource connect(int port) {
    KubernetesMachineResource r = KubernetesMachineResource.connect(
        KubernetesConnection.to(URI.create("http://127.0.0.1:" + port))
            .withRequestTimeout(Duration.ofSeconds(5))
            .withWatchRetryDelay(Duration.ofMillis(50)));
    toClose.add(r);
    return r;
  }

  @Override
  protected MachineResource resource() {
    return resource;
  }

  @Override
  protected void putAsAnotherClient(String name, MachineSpec spec) throws Exception {
    if (!other.create(name, spec)) {
      updateSpecAsAnotherClient(name, s -> spec);
    }
  }

  @Override
  protected void updateSpecAsAnotherClient(String name, UnaryOperator<MachineSpec> change)
      throws Exception {
    MachineSpec next = change.apply(other.get(name).orElseThrow().spec());
    admin.genericKubernetesResources(MACHINES).withName(name).edit(r -> {
      GenericKubernetesResource copy = admin.getKubernetesSerialization().clone(r);
      copy.setAdditionalProperty("spec", MachineTrees.spec(next));
      return copy;
    });
  }

  @Override
  protected void writeStatusAsAnotherClient(String name, UnaryOperator<MachineStatus> change)
      throws Exception {
    other.updateStatus(name, change);
  }

  @Override
  protected void deleteAsAnotherClient(String name) {
    admin.genericKubernetesResources(MACHINES).withName(name).delete();
  }

  @Override
  protected void whileWatchesAreLost(ThrowingRunnable change) throws Exception {
    relay.cut();
    try {
      change.run();
    } finally {
      relay.restore();
    }
  }

  @Override
  protected MachineResource resourceWithoutMachineType() {
    return connect(startServer().getPort());
  }
}
