package dev.noneops.benchmarks.e2e;

import dev.noneops.core.layout.NodeConstants;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.DebianRuntimes;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.standins.KubeletStandIn;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The example node the rows that bootstrap through the CLI install: Debian's containerd (the
 * older of its two builds) and runc, the kubelet and CoreDNS stand-ins, published once into the
 * artifact repository cached below {@code ~/.cache/noneops}, and its configuration downloading
 * them from an {@link ArtifactServer} with LocalDNS on an interface of its own.
 */
final class ExampleAgentNode {
  static final String K8S = "1.31.4";
  static final int CONTAINERD_METRICS_PORT =
      Integer.parseInt(NodeConstants.CONTAINERD_METRICS_ADDRESS.substring(
          NodeConstants.CONTAINERD_METRICS_ADDRESS.lastIndexOf(':') + 1));
  static final Duration PORT_WAIT = Duration.ofMinutes(15);

  private final ArtifactRepository repository;
  private final ArtifactSet.Runtime containerd;
  private final ArtifactSet.Runtime runc;

  private ExampleAgentNode(
      ArtifactRepository repository, ArtifactSet.Runtime containerd, ArtifactSet.Runtime runc) {
    this.repository = repository;
    this.containerd = containerd;
    this.runc = runc;
  }

  /** Publishes the node's artifacts (a no-op for those already in the cache). */
  static ExampleAgentNode publish() throws IOException, InterruptedException {
    ArtifactSet.Runtime containerd = DebianRuntimes.containerd().older();
    ArtifactSet.Runtime runc = DebianRuntimes.runc();
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "noneops");
    ArtifactRepository repository = new ArtifactRepository(cache.resolve("system-test-artifacts"));
    new NodeArtifactBuilder(
            repository,
            new DebianPackages(
                cache.resolve("debian").resolve("containerd-" + containerd.debianVersion())),
            StandInScripts.ofThisJvm())
        .publish(
            new ArtifactSet(K8S, containerd, runc, "1.5.1", "1.31.0", "1.11.3", "amd64", false));
    return new ExampleAgentNode(repository, containerd, runc);
  }

  /** The repository's root, for {@link ArtifactServer#serve}. */
  Path repositoryRoot() {
    return repository.root();
  }

  /** Debian's containerd version the node runs. */
  String containerdVersion() {
    return containerd.version();
  }

  /**
   * The node's configuration: the example cluster downloading from {@code server}, LocalDNS bound
   * to {@code dnsAddress} on its own interface {@code dnsInterface}.
   */
  String json(ArtifactServer server, String dnsInterface, String dnsAddress) {
    String json = ConfigJson.of(K8S)
        .withContainerd(containerd.version())
        .withRunc(runc.version())
        .withDownloadsFrom(server.uri().toString())
        .withLocalDnsBindAddress(dnsAddress)
        .json();
    String bind = "\"BindAddress\": \"" + dnsAddress + "\"";
    if (!json.contains(bind)) {
      throw new IllegalStateException(
          "the example configuration has no LocalDNS bind address to extend: " + json);
    }
    return json.replace(bind, bind + ", \"InterfaceName\": \"" + dnsInterface + "\"");
  }

  /**
   * The sandbox shares the host's network, and other test runs on the machine start stacks too:
   * waits (up to {@link #PORT_WAIT}) until kubelet's healthz port and containerd's metrics port
   * are free on every address; {@code who} names the waiting row in its messages.
   */
  static void awaitPortsFree(String who) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + PORT_WAIT.toNanos();
    for (int port : new int[] {KubeletStandIn.DEFAULT_HEALTHZ_PORT, CONTAINERD_METRICS_PORT}) {
      while (!free(port)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "port " + port + " stayed in use by another process for " + PORT_WAIT);
        }
        System.err.println(who + ": port " + port + " is in use; waiting");
        Thread.sleep(5000);
      }
    }
  }

  private static boolean free(int port) throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (BindException e) {
      return false;
    }
  }
}
