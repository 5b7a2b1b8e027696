/**
 * The goal state of a host-native node: what to install ({@link dev.noneops.core.goalstate.RootFs})
 * and how to run it ({@link dev.noneops.core.goalstate.NodeStart}), resolved from the agent
 * configuration and the host's facts.
 */
package dev.noneops.core.goalstate;
