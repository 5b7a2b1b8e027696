package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.output.LiveProgress;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.systemd.Systemd;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The daemon's node context asks for the cluster's clients only when an operation asks the
 * cluster: a daemon that follows no Machine and has nothing to do (its start-up recovery, its
 * answers to {@code status}) builds no Kubernetes client, loads none of its classes and starts
 * none of its threads.
 */
class NodeContextClusterTest {
  private final AtomicInteger clientsAsked = new AtomicInteger();

  @Test
  void makingTheDaemonsNodesAsksTheClusterForNoClient() throws Exception {
    try (NodeContext ctx = context()) {
      ctx.node(Optional.empty(), Optional.empty());
      Optional<ClusterCheck> check = ctx.clusterCheck(Optional.empty());

      assertThat(check).as("the nodes still check the cluster when asked").isPresent();
      assertThat(clientsAsked).as("clients asked for before any call").hasValue(0);
    }
  }

  @Test
  void theFirstCallMakesTheClientAndLaterCallsKeepIt() throws Exception {
    try (NodeContext ctx = context()) {
      ClusterNode cluster = ctx.clusterCheck(Optional.empty()).orElseThrow().cluster();

      assertThat(cluster.serverVersion()).isEqualTo("v1.31.4");
      assertThat(cluster.serverVersion()).isEqualTo("v1.31.4");
      assertThat(clientsAsked).hasValue(1);
    }
  }

  private NodeContext context() throws Exception {
    Systemd unreachable = (Systemd) Proxy.newProxyInstance(
        Systemd.class.getClassLoader(), new Class<?>[] {Systemd.class}, (p, m, a) -> {
          throw new AssertionError("systemd asked: " + m.getName());
        });
    HostPorts ports = RealHost.create().ports(unreachable);
    CliEnvironment environment = new CliEnvironment(
        () -> new HostSession(ports, Layout.defaultLayout(), HostPaths.realHost(), () -> {})
            .withCluster(() -> Optional.of(new CountingClients())),
        () -> true,
        "1.2.3-test");
    LiveProgress quiet = new LiveProgress() {
      @Override
      public void onEvent(dev.noneops.ports.events.NodeEvent event) {}

      @Override
      public void close() {}
    };
    return NodeContext.open(environment, quiet)
        .cluster(new NodeContext.ClusterOptions(Optional.empty(), false));
  }

  /** Clients that count being asked for, answering the server's version only. */
  private final class CountingClients implements ClusterClients {
    @Override
    public MachineResource machines() {
      clientsAsked.incrementAndGet();
      throw new AssertionError("no Machine is followed");
    }

    @Override
    public ClusterNode nodes() {
      clientsAsked.incrementAndGet();
      return new VersionOnly();
    }

    @Override
    public void close() {}
  }

  private static final class VersionOnly implements ClusterNode {
    @Override
    public String serverVersion() {
      return "v1.31.4";
    }

    @Override
    public Optional<NodeObject> node(String node) {
      throw new AssertionError();
    }

    @Override
    public void cordon(String node) {
      throw new AssertionError();
    }

    @Override
    public void uncordon(String node) {
      throw new AssertionError();
    }

    @Override
    public List<PodOnNode> podsOn(String node) {
      throw new AssertionError();
    }

    @Override
    public Eviction evict(PodOnNode pod) {
      throw new AssertionError();
    }

    @Override
    public boolean deleteNode(String node) {
      throw new AssertionError();
    }

    @Override
    public Optional<NodeReadiness> readiness(String node) {
      throw new AssertionError();
    }

    @Override
    public void recordEvent(ClusterEvent event) {
      throw new AssertionError();
    }
  }
}
