/**
 * The upgrade protocol: prepare the target beside the active version, save the configuration,
 * journal, switch and prove the target healthy, or roll back ({@link
 * dev.noneops.core.node.internal.upgrade.Upgrade}); the commit, the recovery of an upgrade a crash
 * interrupted and the prune of versions nothing uses.
 */
package dev.noneops.core.node.internal.upgrade;
