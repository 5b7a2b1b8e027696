package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.upgrade.UpgradeRecovery;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@link Node#recoverUpgrade(AgentConfig)} and its forms for the daemon and the boot gate: the
 * journal read under the lock, an interrupted upgrade committed or rolled back ({@link
 * UpgradeRecovery}), and the result made of what it reports.
 */
final class RecoverUseCase {
  private final Node node;
  private final UpgradeParts upgrade;

  RecoverUseCase(Node node) {
    this.node = node;
    this.upgrade = new UpgradeParts(node);
  }

  RecoveryResult run(AgentConfig applied, RecoveryMode mode) {
    UpgradeRecovery.Mode stack =
        mode == RecoveryMode.AT_BOOT ? UpgradeRecovery.Mode.BOOT : UpgradeRecovery.Mode.LIVE;
    UpgradeRecovery.Claim claim = mode == RecoveryMode.ABANDONED_ONLY
        ? UpgradeRecovery.Claim.ONLY_ABANDONED
        : UpgradeRecovery.Claim.UNLESS_OWNER_RUNS;
    Objects.requireNonNull(applied, "applied");
    if (!node.parts().hasLayout()) {
      return new RecoveryResult(
          RecoveryResult.Outcome.NOTHING_TO_DO, Optional.empty(), List.of(), Optional.empty());
    }
    Supplier<MachineGoalState> appliedGoal = new Supplier<>() {
      private MachineGoalState resolved;

      @Override
      public MachineGoalState get() {
        if (resolved == null) {
          resolved = node.goalStates().resolve(applied);
        }
        return resolved;
      }
    };
    var steps = upgrade.steps(
        node.goalStates().configured() ? node::goalState : appliedGoal,
        appliedGoal,
        () -> node.effectiveConfig().orElse(applied));
    return UpgradeParts.call(
        "recover-upgrade",
        () -> RecoveryResult.of(new UpgradeRecovery(upgrade.context(), stack)
            .run(steps, ConfigDigest.of(applied).hex(), claim)));
  }
}
