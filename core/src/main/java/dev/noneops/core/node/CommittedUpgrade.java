package dev.noneops.core.node;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Node#upgradeAndCommit(UpgradeOptions)} did: the upgrade, committed with its applied
 * configuration recorded, and the prune that followed (empty when it was not asked for).
 */
public record CommittedUpgrade(UpgradeResult upgrade, Optional<PruneReport> pruned) {
  public CommittedUpgrade {
    Objects.requireNonNull(upgrade, "upgrade");
    Objects.requireNonNull(pruned, "pruned");
  }
}
