package dev.noneops.acceptance.system.agent;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The node the agent system tests bootstrap through the CLI inside a sandbox: the artifact sets of
 * {@code NodeOnRealSystemdSystemTest} (real containerd and runc from Debian, the kubelet and
 * CoreDNS stand-ins) served from a local HTTP server, and a configuration whose LocalDNS listens
 * on an interface and address of this test's own (the sandbox shares the host's network). On a
 * kernel without dummy links the tests give the sandbox {@link
 * DummyLinkStandIn#installWhereNeeded}.
 */
final class AgentNodeFixture implements AutoCloseable {
  static final String CONFIG = "/etc/unbounded/agent/config.json";
  static final String K8S = "1.31.4";
  static final String K8S_NEVER_HEALTHY = "1.31.5";
  static final DebianRuntimes.ContainerdPair CONTAINERD = DebianRuntimes.containerd();
  static final ArtifactSet.Runtime RUNC = DebianRuntimes.runc();
  static final int CONTAINERD_METRICS_PORT = 10257;
  static final URI HEALTHZ = URI.create("http://127.0.0.1:10248/healthz");

  private final ArtifactServer server;
  private final String dnsInterface;
  private final String dnsAddress;

  private AgentNodeFixture(ArtifactServer server, String dnsInterface, String dnsAddress) {
    this.server = server;
    this.dnsInterface = dnsInterface;
    this.dnsAddress = dnsAddress;
  }

  /** Publishes the artifact sets (cached across runs) and serves them. */
  static AgentNodeFixture serve(String dnsInterface, String dnsAddress)
      throws IOException, InterruptedException {
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "noneops");
    ArtifactRepository repository = new ArtifactRepository(cache.resolve("system-test-artifacts"));
    ArtifactSet old =
        new ArtifactSet(K8S, CONTAINERD.older(), RUNC, "1.5.1", "1.31.0", "1.11.3", "amd64", false);
    builder(repository, cache, CONTAINERD.older()).publish(old);
    NodeArtifactBuilder newer = builder(repository, cache, CONTAINERD.newer());
    newer.publish(old.withContainerd(CONTAINERD.newer()));
    newer.publish(old.withContainerd(CONTAINERD.newer()).withBrokenKubelet(K8S_NEVER_HEALTHY));
    return new AgentNodeFixture(ArtifactServer.serve(repository.root()), dnsInterface, dnsAddress);
  }

  private static NodeArtifactBuilder builder(
      ArtifactRepository repository, Path cache, ArtifactSet.Runtime containerd)
      throws IOException {
    DebianPackages debian = new DebianPackages(
        cache.resolve("debian").resolve("containerd-" + containerd.debianVersion()));
    return new NodeArtifactBuilder(repository, debian, StandInScripts.ofThisJvm());
  }

  /** The configuration of the first version: the older containerd. */
  String base() {
    return json(K8S, CONTAINERD.older().version());
  }

  /** Another version: the newer containerd. */
  String upgraded() {
    return json(K8S, CONTAINERD.newer().version());
  }

  /** A version whose kubelet never answers its healthz. */
  String neverHealthy() {
    return json(K8S_NEVER_HEALTHY, CONTAINERD.newer().version());
  }

  /** {@code json} with the node label {@code example.com/pool} set to {@code pool}. */
  static String withPool(String json, String pool) {
    String label = "\"example.com/pool\": \"demo\"";
    if (!json.contains(label)) {
      throw new IllegalStateException("the example configuration has no pool label: " + json);
    }
    return json.replace(label, "\"example.com/pool\": \"" + pool + "\"");
  }

  private String json(String kubernetes, String containerd) {
    String json = ConfigJson.of(kubernetes)
        .withContainerd(containerd)
        .withRunc(RUNC.version())
        .withDownloadsFrom(server.uri().toString())
        .withLocalDnsBindAddress(dnsAddress)
        .json();
    String bind = "\"BindAddress\": \"" + dnsAddress + "\"";
    return json.replace(bind, bind + ", \"InterfaceName\": \"" + dnsInterface + "\"");
  }

  /** The reactor's CLI jar, which the system tests of this module need. */
  static Path builtJar() {
    Path jar =
        Path.of("..", "adapter-cli", "target", "noneops.jar").toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the CLI jar " + jar + " is missing: the reactor builds it before this module");
    }
    return jar;
  }

  /** Writes {@code json} as the file {@code path} inside the sandbox. */
  static void write(SystemdSandbox sandbox, String path, String json) throws IOException {
    Path file = sandbox.path(path);
    Files.createDirectories(Objects.requireNonNull(file.getParent(), "the file's directory"));
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, json, UTF_8);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Whether kubelet's healthz answers 200 now (the sandbox shares the host's network). */
  static boolean kubeletHealthy() {
    try {
      HttpResponse<Void> r = HttpClient.newBuilder()
          .connectTimeout(Duration.ofMillis(500))
          .build()
          .send(
              HttpRequest.newBuilder(HEALTHZ).timeout(Duration.ofMillis(500)).build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Waits until the ports the node's containerd (metrics, {@value #CONTAINERD_METRICS_PORT}) and
   * kubelet (healthz) bind are free: the sandbox shares the host's network with other sandboxes,
   * whose nodes may hold them for a while.
   */
  static void awaitPortsFree(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!(free(new InetSocketAddress(CONTAINERD_METRICS_PORT))
        && free(new InetSocketAddress(InetAddress.getLoopbackAddress(), 10248)))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("ports " + CONTAINERD_METRICS_PORT
            + " (containerd's metrics) and 10248 (kubelet's healthz) still in use after " + timeout
            + ": another node runs on this host's network");
      }
      Thread.sleep(1000);
    }
  }

  private static boolean free(InetSocketAddress address) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(address);
      return true;
    } catch (IOException inUse) {
      return false;
    }
  }

  /** The journals of the stack's units and the agent's, for a failure's message. */
  static String stackJournals(SystemdSandbox sandbox) {
    StringBuilder out = new StringBuilder();
    for (String unit : List.of(
        "noneops-recover.service",
        "localdns.service",
        "containerd.service",
        "kubelet.service",
        "noneops-agent.service")) {
      out.append("--- ").append(unit).append('\n').append(sandbox.journal(unit));
    }
    return out.toString();
  }

  /** Removes LocalDNS's interface from the host's network when a test left it there. */
  void removeLeftLink() throws IOException, InterruptedException {
    String shown = host("ip", "-d", "link", "show", "dev", dnsInterface);
    if (shown.contains("dummy") || shown.contains(DummyLinkStandIn.STAND_IN_TYPE)) {
      host("ip", "link", "delete", "dev", dnsInterface);
    }
  }

  private static String host(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of(argv)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    p.waitFor(10, TimeUnit.SECONDS);
    return out;
  }

  @Override
  public void close() {
    server.close();
  }
}
