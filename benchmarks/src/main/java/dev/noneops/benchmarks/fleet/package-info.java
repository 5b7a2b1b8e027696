/**
 * A fleet, by simulation ({@link dev.noneops.benchmarks.fleet.FleetSimulation}): many simulated
 * hosts, each with its own agent's daemon, against one simulated API server, upgraded by a rollout
 * that raises Machines' repave counters in waves.
 */
package dev.noneops.benchmarks.fleet;
