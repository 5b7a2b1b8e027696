package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.files.DisownedSince;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.phases.StartPhase;
import dev.noneops.core.node.internal.stack.ClusterReadyGate;
import dev.noneops.core.node.internal.task.Task;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@link Node#apply()} as its task list, under one hold of the node lock: refuse a configuration
 * that needs another version, configure, restart what changed and start what does not run, wait
 * for kubelet, and only then record the configuration as applied. With cluster credentials and an
 * API server that answers before the apply, a kubelet the apply restarted or started must also be
 * seen Ready in the cluster (its version, this boot, a heartbeat after the apply began) within the
 * bound; otherwise the apply fails naming what did not hold and the record stays as it was (an
 * apply keeps the version, so there is nothing to roll back to).
 */
final class ApplyUseCase {
  private final Node node;
  private final PhaseContext parts;

  ApplyUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
  }

  ApplyResult run() {
    AgentConfig config =
        node.effectiveConfig().orElseThrow(() -> new NotConfiguredException("applying"));
    return parts.locked("apply", () -> {
      String active = node.version()
          .orElseThrow(() -> new NodeAbsentException(parts.layout().current(), "apply"));
      String wanted = node.goalState().rootFs().versionName();
      if (!wanted.equals(active)) {
        throw new VersionChangeRefusedException(wanted, active);
      }
      boolean wasRunning = node.running();
      Optional<ClusterReadyGate> gate = clusterGate();
      DisownedSince disowning =
          DisownedSince.now(parts.ownership(), parts.params().log());
      Instant switchedAt = parts.ports().clock().now();
      ConfigureResult changes = node.configure();
      List<Path> disowned = disowning.newlyDisowned();
      StartPhase.StackChanges done = parts.locked(
          "start", () -> new StartPhase(parts).apply(node.goalState(), changes.files()));
      if (gate.isPresent()
          && (done.restarted().contains(HostPaths.KUBELET_UNIT)
              || done.started().contains(HostPaths.KUBELET_UNIT))) {
        MachineGoalState goal = node.goalState();
        ClusterReadyGate cluster = gate.get();
        parts
            .tasks()
            .execute(Task.of(
                "apply-await-cluster-ready",
                () -> cluster.await(
                    goal.rootFs().hostname(), goal.rootFs().versions().kubernetes(), switchedAt)));
      }
      node.parts().recordApplied(config);
      return new ApplyResult(
          active, wasRunning, changes, node.running(), done.restarted(), done.started(), disowned);
    });
  }

  /**
   * The cluster's part of the readiness gate, when the node has cluster credentials and the API
   * server answers now, before anything changes; empty (kubelet's healthz alone) otherwise.
   */
  private Optional<ClusterReadyGate> clusterGate() {
    Optional<ClusterCheck> check = parts.params().cluster();
    if (check.isEmpty()) {
      return Optional.empty();
    }
    ClusterReadyGate gate = new ClusterReadyGate(
        check.get(),
        parts.ports().facts(),
        parts.ports().clock(),
        parts.params().log());
    try {
      gate.serverVersion();
      return Optional.of(gate);
    } catch (IOException | RuntimeException e) {
      parts
          .params()
          .log()
          .atWarn()
          .addKeyValue("error", e.getMessage())
          .log("the API server cannot be asked before the apply: kubelet's healthz alone");
      return Optional.empty();
    }
  }
}
