package dev.noneops.benchmarks.fleet;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.Params;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.host.SimHostFacts;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimClusterNode;
import dev.noneops.testkit.machine.SimMachineApi;
import dev.noneops.testkit.machine.SimMachineResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.helpers.NOPLogger;

/**
 * One node of the fleet: a simulated host bootstrapped on the first version with its agent, its
 * own daemon following its Machine through its own clients of the shared API server, the requests
 * those clients made, and how much virtual time its ticks took.
 */
final class FleetNode {
  private static final RepaveOptions TIMEOUTS =
      new RepaveOptions(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofSeconds(5));

  /** How a node's target fails, if it does. */
  enum Failure {
    /** The target comes up and the cluster sees its Node Ready. */
    NONE,
    /** The target's kubelet never answers its healthz. */
    HEALTHZ_NEVER_ANSWERS,
    /** The target's kubelet answers healthz, but its Node never becomes Ready. */
    NEVER_READY_IN_CLUSTER
  }

  final String name;
  final SimNode lab;
  final Failure failure;
  private final SimMachineResource machines;
  private final SimClusterNode nodes;
  private final NodeDaemon daemon;
  private Duration virtualBusy = Duration.ZERO;

  FleetNode(
      int index,
      AgentConfig first,
      AgentConfig target,
      Failure failure,
      SimMachineApi api,
      SimClusterApi cluster) {
    this.name = String.format("node-%04d", index);
    this.failure = failure;
    lab = new SimNode();
    lab.host
        .facts()
        .set(new HostInfo(
            "amd64",
            "6.1.0-sim",
            name,
            List.<Path>of(),
            false,
            SimHostFacts.DEFAULT.upstreamNameservers()));
    AgentConfig own = named(first, name);
    lab.bootstrapWithAgent(own);
    lab.publish(named(target, name));
    String targetVersion = lab.versionOf(named(target, name));
    if (failure == Failure.HEALTHZ_NEVER_ANSWERS) {
      lab.kubeletNeverReady.add(targetVersion);
    }
    Map<String, String> kubeletOf = Map.of(
        lab.versionOf(own),
        "v" + first.cluster().version().replaceFirst("^v", ""),
        targetVersion,
        "v" + target.cluster().version().replaceFirst("^v", ""));
    String bootId = bootId();
    cluster.registerNode(name);
    lab.onKubeletStart(() -> {
      Optional<String> active = lab.activeVersionRaw();
      cluster.kubeletNeverReady(
          name,
          failure == Failure.NEVER_READY_IN_CLUSTER
              && active.filter(targetVersion::equals).isPresent());
      cluster.kubeletStarted(name, active.map(kubeletOf::get).orElse(""), bootId);
    });
    machines = api.client();
    nodes = cluster.client();
    daemon = new NodeDaemon(
            lab.host.ports(),
            lab.layout,
            lab.paths,
            (config, previous) -> {
              Params.Builder params = Params.builder(lab.host.ports())
                  .config(config.isPresent() ? config.get() : previous.orElseThrow())
                  .cluster(ClusterCheck.of(nodes));
              previous.ifPresent(params::previous);
              return lab.node(params);
            },
            new NodeDaemon.Options(SimNode.AGENT_CONFIG_FILE, Duration.ofSeconds(5), "amd64"),
            NodeDaemon.Listener.NONE,
            NOPLogger.NOP_LOGGER)
        .followMachine(new Clients(machines, nodes), TIMEOUTS, Runnable::run);
  }

  private String bootId() {
    try {
      return lab.host.ports().facts().bootId();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code config} with the Machine name {@code machine}. */
  static AgentConfig named(AgentConfig config, String machine) {
    return new AgentConfig(
        machine,
        config.cluster(),
        config.kubelet(),
        config.cri(),
        config.cni(),
        config.ociImage(),
        config.attest(),
        config.downloads(),
        config.localDns());
  }

  void start() {
    daemon.start();
  }

  /** One tick of the daemon, its virtual time added to {@link #virtualBusy()}. */
  void tick() {
    var before = lab.host.clock().now();
    daemon.tick();
    virtualBusy = virtualBusy.plus(Duration.between(before, lab.host.clock().now()));
  }

  /** The virtual time its ticks took since the last call, which resets it. */
  Duration takeVirtualBusy() {
    Duration d = virtualBusy;
    virtualBusy = Duration.ZERO;
    return d;
  }

  long requests() {
    return machines.requests() + nodes.requests();
  }

  Optional<String> activeVersion() {
    return lab.activeVersionRaw();
  }

  private record Clients(MachineResource machines, ClusterNode nodes)
      implements NodeDaemon.Cluster {}
}
