package dev.noneops.core.node;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Node#upgradeAndCommit(UpgradeOptions)} did: the upgrade, committed with its applied
 * configuration recorded, and the prune that followed (empty when it was not asked for).
 */
public record UpgradeAndCommitResult(UpgradeResult upgrade, Optional<PruneResult> pruned) {
  public UpgradeAndCommitResult {
    Objects.requireNonNull(upgrade, "upgrade");
    Objects.requireNonNull(pruned, "pruned");
  }
}
