package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.DownloadOverrides;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.events.NodeEvents;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What binds a {@link Node} to one configuration.
 *
 * @param ports the host, through its ports
 * @param log where phases log started/completed/failed
 * @param events the structured listener of the same
 * @param config the agent configuration goal states are resolved from; empty for a node that only
 *     stops or reports status
 * @param downloads download overrides applied on top of the configuration's own; the result
 *     ({@link Node#effectiveConfig()}) is what the node installs and journals, and what the caller
 *     records as the applied config. {@code previous} and the applied config carry their own.
 * @param goalState a goal state already resolved (bootstrap passes it so device discovery
 *     happens once); used instead of resolving {@code config}
 * @param previous the configuration the node ran before an upgrade (the applied config): a
 *     rollback restores its units and host networking
 * @param previousGoalState used instead of resolving {@code previous}
 * @param overrides the seams; {@link Overrides#DEFAULTS} in production
 * @param teardown what the backend's destroy delegates to
 * @param agent the agent build a bootstrap installs with its recovery gate and daemon; empty for
 *     an embedder that runs its own agent (the stack's units then start without a gate)
 * @param cluster the node's cluster, with kubelet's credentials: an upgrade's readiness gate then
 *     includes the Node's readiness, and the version skew policy is checked against the API
 *     server; empty for a node without credentials (the gate is kubelet's healthz alone)
 */
public record Params(
    HostPorts ports,
    Logger log,
    NodeEvents events,
    Optional<AgentConfig> config,
    DownloadOverrides downloads,
    Optional<MachineGoalState> goalState,
    Optional<AgentConfig> previous,
    Optional<MachineGoalState> previousGoalState,
    Overrides overrides,
    Optional<NodeTeardown> teardown,
    Optional<AgentSetup> agent,
    Optional<ClusterCheck> cluster) {

  public Params {
    Objects.requireNonNull(ports, "ports");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(downloads, "downloads");
    Objects.requireNonNull(goalState, "goalState");
    Objects.requireNonNull(previous, "previous");
    Objects.requireNonNull(previousGoalState, "previousGoalState");
    Objects.requireNonNull(overrides, "overrides");
    Objects.requireNonNull(teardown, "teardown");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(cluster, "cluster");
  }

  public static Builder builder(HostPorts ports) {
    return new Builder(ports);
  }

  public Builder toBuilder() {
    Builder b = new Builder(ports);
    b.log = log;
    b.events = events;
    b.config = config;
    b.downloads = downloads;
    b.goalState = goalState;
    b.previous = previous;
    b.previousGoalState = previousGoalState;
    b.overrides = overrides;
    b.teardown = teardown;
    b.agent = agent;
    b.cluster = cluster;
    return b;
  }

  /** Builds {@link Params}; everything but the ports is optional. */
  public static final class Builder {
    private final HostPorts ports;
    private Logger log = LoggerFactory.getLogger(Node.class);
    private NodeEvents events = NodeEvents.NONE;
    private Optional<AgentConfig> config = Optional.empty();
    private DownloadOverrides downloads = DownloadOverrides.NONE;
    private Optional<MachineGoalState> goalState = Optional.empty();
    private Optional<AgentConfig> previous = Optional.empty();
    private Optional<MachineGoalState> previousGoalState = Optional.empty();
    private Overrides overrides = Overrides.DEFAULTS;
    private Optional<NodeTeardown> teardown = Optional.empty();
    private Optional<AgentSetup> agent = Optional.empty();
    private Optional<ClusterCheck> cluster = Optional.empty();

    private Builder(HostPorts ports) {
      this.ports = Objects.requireNonNull(ports, "ports");
    }

    public Builder log(Logger log) {
      this.log = log;
      return this;
    }

    public Builder events(NodeEvents events) {
      this.events = events;
      return this;
    }

    public Builder config(AgentConfig config) {
      this.config = Optional.of(config);
      return this;
    }

    public Builder downloads(DownloadOverrides downloads) {
      this.downloads = downloads;
      return this;
    }

    public Builder goalState(MachineGoalState goalState) {
      this.goalState = Optional.of(goalState);
      return this;
    }

    public Builder previous(AgentConfig previous) {
      this.previous = Optional.of(previous);
      return this;
    }

    public Builder previousGoalState(MachineGoalState previousGoalState) {
      this.previousGoalState = Optional.of(previousGoalState);
      return this;
    }

    public Builder overrides(Overrides overrides) {
      this.overrides = overrides;
      return this;
    }

    public Builder teardown(NodeTeardown teardown) {
      this.teardown = Optional.of(teardown);
      return this;
    }

    public Builder agent(AgentSetup agent) {
      this.agent = Optional.of(agent);
      return this;
    }

    public Builder cluster(ClusterCheck cluster) {
      this.cluster = Optional.of(cluster);
      return this;
    }

    public Params build() {
      return new Params(
          ports,
          log,
          events,
          config,
          downloads,
          goalState,
          previous,
          previousGoalState,
          overrides,
          teardown,
          agent,
          cluster);
    }
  }

  /**
   * What the backend's {@code destroy} delegates to: the teardown that removes units, versions,
   * pods and data directories. The composition root supplies it (see {@link Teardown}).
   */
  @FunctionalInterface
  public interface NodeTeardown {
    void destroy() throws Exception;
  }
}
