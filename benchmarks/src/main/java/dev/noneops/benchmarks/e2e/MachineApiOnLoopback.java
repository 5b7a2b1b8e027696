package dev.noneops.benchmarks.e2e;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A cluster for row 7's daemon that follows a Machine: fabric8's mock API server in CRUD mode,
 * serving the Machine CRD (the acceptance tests' copy of upstream's definition), on loopback in
 * the benchmark's JVM; the sandbox shares the host's network, so the node's daemon reaches it at
 * {@code http://127.0.0.1:<port>}.
 */
final class MachineApiOnLoopback implements AutoCloseable {
  static final String CRD =
      "acceptance-tests/src/test/resources/kubernetes/machines.unbounded-cloud.io.yaml";

  /** The mock's own logger, held so that its level stays: a line per request is noise here. */
  private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  private final KubernetesMockServer server;
  private final KubernetesClient admin;

  private MachineApiOnLoopback(KubernetesMockServer server, KubernetesClient admin) {
    this.server = server;
    this.admin = admin;
  }

  /** Starts the server with the CRD read from the repository at {@code repo}. */
  static MachineApiOnLoopback start(Path repo) throws IOException {
    MOCK_LOG.setLevel(Level.WARNING);
    KubernetesMockServer server = new KubernetesMockServer(
        new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init();
    KubernetesClient admin = server.createClient();
    try (InputStream yaml = Files.newInputStream(repo.resolve(CRD))) {
      CustomResourceDefinition crd =
          admin.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
      admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    } catch (IOException | RuntimeException e) {
      admin.close();
      server.destroy();
      throw e;
    }
    return new MachineApiOnLoopback(server, admin);
  }

  /** A kubeconfig that reaches this server, with a token the mock does not check. */
  String kubeconfig() {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: bench\n  cluster:\n    server: http://127.0.0.1:"
        + server.getPort()
        + "\nusers:\n- name: bench\n  user:\n    token: bench\ncontexts:\n- name: bench\n  context:\n"
        + "    cluster: bench\n    user: bench\ncurrent-context: bench\n";
  }

  int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
