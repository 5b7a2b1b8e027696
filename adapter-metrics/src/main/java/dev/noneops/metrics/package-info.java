/**
 * The {@link dev.noneops.ports.metrics.AgentMetrics} port in Prometheus' exposition format, made
 * with the Prometheus Java client: {@link dev.noneops.metrics.PrometheusAgentMetrics} holds the
 * registry, {@link dev.noneops.metrics.TextfileExporter} writes it for node_exporter's textfile
 * collector, and {@link dev.noneops.metrics.HttpExporter} serves it on {@code /metrics} when the
 * operator asks for it. The metric names, labels and help texts are listed in {@code
 * docs/reference/metrics.md}.
 */
package dev.noneops.metrics;
