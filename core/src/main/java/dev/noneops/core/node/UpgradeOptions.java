package dev.noneops.core.node;

/**
 * How {@link Node#upgradeAndCommit(UpgradeOptions)} runs.
 *
 * @param force retry an upgrade to a version and configuration that was rolled back before
 * @param prune remove the versions nothing uses any more once the upgrade is committed
 */
public record UpgradeOptions(boolean force, boolean prune) {
  /** Without force, pruning after the commit: what an operator's {@code noneops upgrade} does. */
  public static final UpgradeOptions DEFAULTS = new UpgradeOptions(false, true);
}
