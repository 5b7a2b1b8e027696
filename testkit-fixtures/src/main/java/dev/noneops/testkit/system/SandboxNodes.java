package dev.noneops.testkit.system;

import dev.noneops.cli.wiring.DownloadThreads;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeTimeouts;
import dev.noneops.core.node.Overrides;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.Teardown;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.events.NodeEvents;
import java.time.Duration;
import java.util.Optional;

/**
 * Nodes for system tests, composed as the CLI composes them: production layout, host root and
 * unit directory (the ports carry the sandbox), parallel tasks on threads of their own, the node's
 * teardown as the backend's destroy, and shorter waits than production so a failing test fails within the class's time budget.
 */
public final class SandboxNodes {
  /** Where parallel tasks run, as the CLI's {@link DownloadThreads} (daemon threads, shared). */
  private static final DownloadThreads PARALLEL = new DownloadThreads();

  private SandboxNodes() {}

  /** Production timeouts, with kubelet's readiness bounded by {@code kubeletReady}. */
  public static NodeTimeouts timeouts(Duration kubeletReady) {
    NodeTimeouts d = NodeTimeouts.DEFAULTS;
    return new NodeTimeouts(
        Duration.ofSeconds(60),
        kubeletReady,
        Duration.ofSeconds(30),
        d.pollInterval(),
        Duration.ofSeconds(1),
        d.command(),
        d.imageImport());
  }

  /** A node bound to {@code config} (empty for stop/status), rolling back to {@code previous}. */
  public static Node node(
      HostPorts ports,
      Optional<AgentConfig> config,
      Optional<AgentConfig> previous,
      Duration kubeletReady,
      NodeEvents events) {
    Overrides overrides = Overrides.builder()
        .timeouts(timeouts(kubeletReady))
        .parallelExecutor(PARALLEL)
        .build();
    Teardown teardown = teardown(ports);
    Params.Builder params =
        Params.builder(ports).events(events).overrides(overrides).teardown(teardown::removeAll);
    config.ifPresent(params::config);
    previous.ifPresent(params::previous);
    return new Node(params.build());
  }

  /** The node's teardown at the production paths. */
  public static Teardown teardown(HostPorts ports) {
    return Teardown.forRealHost(ports);
  }
}
