/**
 * What the agent shows a fleet ({@link dev.noneops.ports.metrics.AgentMetrics}): its figures
 * (versions, units, operations counted by kind and outcome, the quarantined target, when it last
 * ticked and succeeded, the Machine's repave counters, bytes downloaded and verified) and the
 * durations it observes, for an implementation to expose (Prometheus' exposition format through
 * node_exporter's textfile collector, say).
 */
package dev.noneops.ports.metrics;
