package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.phases.ConfigurePhase;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.stack.ClusterReadyGate;
import dev.noneops.core.node.internal.state.UpgradeOwners;
import dev.noneops.core.node.internal.upgrade.NodeUpgradeSteps;
import dev.noneops.core.node.internal.upgrade.UpgradeContext;
import dev.noneops.core.node.internal.upgrade.UpgradedNode;
import dev.noneops.core.node.internal.upgrade.VersionPruner;
import dev.noneops.ports.HostPorts;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * What the upgrade, commit, recovery and prune of one node share: their context (files, clock,
 * layout, lock, journal owners), the steps over the node's phases, and one way to run them.
 */
final class UpgradeParts {
  private final Node node;
  private final PhaseContext parts;

  UpgradeParts(Node node) {
    this.node = node;
    this.parts = node.parts();
  }

  UpgradeContext context() {
    HostPorts ports = parts.ports();
    return new UpgradeContext(
        ports.files(),
        ports.clock(),
        parts.layout(),
        parts.paths(),
        parts.tasks(),
        parts.lock(),
        new UpgradeOwners(ports.processes(), ports.facts()),
        node.teardown().steps()::removeTree,
        parts.params().log(),
        parts
            .params()
            .cluster()
            .map(c -> new ClusterReadyGate(
                c, ports.facts(), ports.clock(), parts.params().log())));
  }

  /** The steps between {@code target} and {@code applied}, journaled with {@code config}'s digest. */
  NodeUpgradeSteps steps(
      Supplier<MachineGoalState> target,
      Supplier<MachineGoalState> applied,
      Supplier<AgentConfig> config) {
    return new NodeUpgradeSteps(
        new NodeUnderUpgrade(),
        target,
        applied,
        () -> ConfigDigest.of(config.get()).hex());
  }

  VersionPruner pruner() {
    HostPorts ports = parts.ports();
    return new VersionPruner(
        ports.files(),
        ports.processes(),
        parts.layout(),
        parts.paths(),
        node.teardown().steps()::removeTree);
  }

  /** Runs {@code body}, wrapping a checked failure once in a {@link NodeException}. */
  static <T> T call(String operation, Callable<T> body) {
    try {
      return body.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new NodeException(operation + ": " + e.getMessage(), e);
    }
  }

  /** The node as its upgrade's steps see it. */
  private final class NodeUnderUpgrade implements UpgradedNode {
    @Override
    public PhaseContext parts() {
      return parts;
    }

    @Override
    public String prepareTarget() {
      return node.prepare().slot();
    }

    @Override
    public void writeConfiguration(MachineGoalState goal) {
      // Without the LocalDNS network: an upgrade and a rollback write a configuration while the
      // other one's interface may still hold the address, and set the interface up themselves
      // once the stack is stopped and the host networking cleaned.
      PhaseContext parts = node.parts();
      parts.locked("configure", () -> new ConfigurePhase(parts).run(goal, false));
    }

    @Override
    public void stop() {
      node.stop();
    }

    @Override
    public void startStopped() {
      node.start(false, ConfigureResult.UNCHANGED);
    }

    @Override
    public boolean running() {
      return node.running();
    }

    @Override
    public List<String> endPods() throws InterruptedException {
      return node.teardown().steps().endPods().blocking().stream()
          .map(Object::toString)
          .toList();
    }

    @Override
    public List<String> cleanCniState() throws InterruptedException {
      return node.teardown().steps().cleanCniState().blocking().stream()
          .map(Object::toString)
          .toList();
    }
  }
}
