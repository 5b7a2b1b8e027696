package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.internal.GoalStateResolver;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.util.Optional;

/**
 * A node's goal states: the target, resolved once on first use from its configuration (or given
 * in {@code Params}), and the one it ran with before an upgrade.
 */
final class GoalStates {
  private final Params params;
  private final HostPorts ports;
  private final Layout layout;
  private MachineGoalState target;
  private MachineGoalState previous;

  GoalStates(Params params, HostPorts ports, Layout layout) {
    this.params = params;
    this.ports = ports;
    this.layout = layout;
    synchronized (this) {
      this.target = params.goalState().orElse(null);
      this.previous = params.previousGoalState().orElse(null);
    }
  }

  synchronized MachineGoalState target() {
    if (target == null) {
      if (params.config().isEmpty()) {
        throw new NotConfiguredException("resolving the goal state");
      }
      target = resolve(effectiveConfig().orElseThrow());
    }
    return target;
  }

  /**
   * {@code Params.previousGoalState}, else {@code Params.previous} resolved, else the target's.
   */
  synchronized MachineGoalState previous() {
    if (previous == null) {
      previous = params.previous().isPresent() ? resolve(params.previous().get()) : target();
    }
    return previous;
  }

  /** Whether the node has a configuration or a goal state of its own (not only an applied one). */
  boolean configured() {
    return params.config().isPresent() || params.goalState().isPresent();
  }

  Optional<AgentConfig> effectiveConfig() {
    return params.config().map(params.downloads()::appliedTo);
  }

  MachineGoalState resolve(AgentConfig config) {
    try {
      return GoalStateResolver.resolve(config, ports.facts().read(), layout);
    } catch (IOException e) {
      throw new NodeException("read host facts to resolve the goal state: " + e.getMessage(), e);
    }
  }
}
