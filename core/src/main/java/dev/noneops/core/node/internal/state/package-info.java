/**
 * The upgrade's durable state: its journal ({@link
 * dev.noneops.core.node.internal.state.UpgradeJournal}, the record of an upgrade in flight and of
 * the process that owns it) and the history of rolled-back upgrades, with the steps an upgrade runs
 * ({@link dev.noneops.core.node.internal.state.UpgradeSteps}) over them.
 */
package dev.noneops.core.node.internal.state;
