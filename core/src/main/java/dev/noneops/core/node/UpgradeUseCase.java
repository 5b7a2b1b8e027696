package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.node.internal.files.DisownedSince;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.task.NodeLock;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.upgrade.Upgrade;
import dev.noneops.core.node.internal.upgrade.UpgradeCommit;
import dev.noneops.core.node.internal.upgrade.VersionSwitch;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link Node#upgrade(boolean)}, {@link Node#upgradeAndCommit(UpgradeOptions)}, {@link
 * Node#commit()} and {@link Node#pruneVersions()}: the upgrade protocol's steps ({@link Upgrade},
 * {@link UpgradeCommit}) over this node, and the results made of what they report.
 */
final class UpgradeUseCase {
  private final Node node;
  private final PhaseContext parts;
  private final UpgradeParts upgrade;

  UpgradeUseCase(Node node) {
    this.node = node;
    this.parts = node.parts();
    this.upgrade = new UpgradeParts(node);
  }

  UpgradeResult upgrade(boolean force) {
    AgentConfig config =
        node.effectiveConfig().orElseThrow(() -> new NotConfiguredException("upgrading"));
    var steps = upgrade.steps(node::goalState, node.goalStates()::previous, () -> config);
    return UpgradeParts.call("upgrade", () -> {
      DisownedSince disowning =
          DisownedSince.now(parts.ownership(), parts.params().log());
      VersionSwitch result = new Upgrade(upgrade.context()).run(steps, force);
      return new UpgradeResult(
          result.previousVersion(),
          result.targetVersion(),
          disowning.newlyDisowned(),
          new ReadinessGate(
              result.clusterGate() ? ReadinessGate.Kind.CLUSTER : ReadinessGate.Kind.HEALTHZ,
              result.gateDetail()));
    });
  }

  /**
   * The upgrade, the applied configuration recorded, the commit and the prune under one hold of
   * the node lock, so no recovery can run between the switch and the recorded configuration.
   */
  @SuppressWarnings("try")
  UpgradeAndCommitResult upgradeAndCommit(UpgradeOptions options) {
    Objects.requireNonNull(options, "options");
    AgentConfig config =
        node.effectiveConfig().orElseThrow(() -> new NotConfiguredException("upgrading"));
    return UpgradeParts.call("upgrade", () -> {
      try (NodeLock.Hold hold = parts.lock().acquire("upgrade")) {
        UpgradeResult result = upgrade(options.force());
        parts
            .tasks()
            .execute(Task.of(
                "record-applied-config",
                () -> new AppliedConfigStore(parts.ports().files(), parts.paths()).write(config)));
        commit();
        Optional<PruneResult> pruned = options.prune() ? Optional.of(prune()) : Optional.empty();
        return new UpgradeAndCommitResult(result, pruned);
      }
    });
  }

  Optional<JournaledUpgrade> commit() {
    if (!node.parts().hasLayout()) {
      return Optional.empty();
    }
    return UpgradeParts.call(
        "commit", () -> new UpgradeCommit(upgrade.context()).run().map(JournaledUpgrade::of));
  }

  @SuppressWarnings("try")
  PruneResult prune() {
    if (!node.parts().hasLayout()) {
      return new PruneResult(List.of(), List.of(), Map.of());
    }
    return UpgradeParts.call("prune-versions", () -> {
      try (NodeLock.Hold hold = parts.lock().acquire("prune versions")) {
        return PruneResult.of(upgrade.pruner().prune());
      }
    });
  }
}
