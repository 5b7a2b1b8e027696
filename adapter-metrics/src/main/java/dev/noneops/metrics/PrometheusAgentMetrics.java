package dev.noneops.metrics;

import dev.noneops.ports.metrics.AgentFigures;
import dev.noneops.ports.metrics.AgentMetrics;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The agent's metrics in a Prometheus registry of their own: the figures last {@linkplain
 * #publish published} as gauges, info metrics and counters (the operation counters are the
 * agent's, which it keeps across restarts), and histograms of the durations observed by this
 * process. Each publication and each observation is passed on to the {@linkplain #onChange
 * listeners} (a {@link TextfileExporter}).
 */
public final class PrometheusAgentMetrics implements AgentMetrics {
  /** The file node_exporter's textfile collector reads: {@code noneops.prom}. */
  public static final String TEXTFILE_NAME = "noneops.prom";

  /**
   * The operations and outcomes exposed at zero before they first happen, so that a rate or an
   * increase sees the first one: the outcomes each kind of operation can end with.
   */
  static final Map<String, List<String>> KNOWN_OPERATIONS = Map.of(
      "apply", List.of("applied", "failed"),
      "upgrade", List.of("upgraded", "rolled-back", "refused", "failed"),
      "recovery", List.of("recovered", "rolled-back", "failed"),
      "repave", List.of("applied", "rolled-back", "refused", "failed"),
      "config", List.of("refused"));

  /** Operation durations: from a second to an hour (a download over a slow link). */
  private static final double[] OPERATION_BUCKETS = {1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600};

  /** Switch-over durations: the stack's downtime, from a second to ten minutes. */
  private static final double[] SWITCH_OVER_BUCKETS = {1, 2, 5, 10, 20, 30, 60, 120, 300, 600};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram operationDuration;
  private final Histogram switchOverDuration;
  private final List<Consumer<PrometheusAgentMetrics>> listeners = new CopyOnWriteArrayList<>();
  private volatile Optional<AgentFigures> figures = Optional.empty();

  public PrometheusAgentMetrics() {
    operationDuration = Histogram.builder()
        .name("noneops_operation_duration_seconds")
        .help(
            "How long the agent's operations took, by kind and outcome, since the daemon started.")
        .unit(Unit.SECONDS)
        .labelNames("operation", "outcome")
        .classicOnly()
        .classicUpperBounds(OPERATION_BUCKETS)
        .withoutExemplars()
        .build();
    switchOverDuration = Histogram.builder()
        .name("noneops_switch_over_duration_seconds")
        .help("How long the stack was down while an upgrade or a rollback switched versions,"
            + " since the daemon started.")
        .unit(Unit.SECONDS)
        .classicOnly()
        .classicUpperBounds(SWITCH_OVER_BUCKETS)
        .withoutExemplars()
        .build();
    registry.register(new FiguresCollector());
    registry.register(operationDuration);
    registry.register(switchOverDuration);
  }

  /** Has {@code listener} told of every publication and observation. */
  public PrometheusAgentMetrics onChange(Consumer<PrometheusAgentMetrics> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /** The registry, for an exporter to serve. */
  PrometheusRegistry registry() {
    return registry;
  }

  @Override
  public void publish(AgentFigures figures) {
    this.figures = Optional.of(Objects.requireNonNull(figures, "figures"));
    changed();
  }

  @Override
  public void operationEnded(String operation, String outcome, Duration took) {
    operationDuration.labelValues(operation, outcome).observe(seconds(took));
    changed();
  }

  @Override
  public void switchOver(Duration took) {
    switchOverDuration.observe(seconds(took));
    changed();
  }

  /** The metrics in Prometheus' text exposition format (version 0.0.4). */
  public String text() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create()
          .write(out, registry.scrape(), io.prometheus.metrics.config.EscapingScheme.ALLOW_UTF8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private void changed() {
    for (Consumer<PrometheusAgentMetrics> l : listeners) {
      l.accept(this);
    }
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static double seconds(Instant t) {
    return t.toEpochMilli() / 1e3;
  }

  /** The figures last published, as snapshots made at each scrape. */
  private final class FiguresCollector implements MultiCollector {
    @Override
    public MetricSnapshots collect() {
      List<MetricSnapshot> out = new ArrayList<>();
      AgentFigures f = figures.orElse(null);
      if (f == null) {
        return new MetricSnapshots(out);
      }
      InfoSnapshot.Builder active = InfoSnapshot.builder()
          .name("noneops_active_version")
          .help("The version the node runs: the one its current link names.");
      f.activeVersion()
          .ifPresent(v -> active.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
              .labels(Labels.of("version", v))
              .build()));
      out.add(active.build());

      InfoSnapshot.Builder installed = InfoSnapshot.builder()
          .name("noneops_installed_version")
          .help("Each version installed under the node's layout.");
      for (String v : f.installedVersions()) {
        installed.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
            .labels(Labels.of("version", v))
            .build());
      }
      out.add(installed.build());

      GaugeSnapshot.Builder units = GaugeSnapshot.builder()
          .name("noneops_unit_active")
          .help("Whether each unit of the node's stack is active (1) or not (0).");
      new TreeMap<>(f.unitsActive())
          .forEach((unit, up) -> units.dataPoint(gauge(Labels.of("unit", unit), up ? 1 : 0)));
      out.add(units.build());

      Map<String, Map<String, Long>> counts = new TreeMap<>();
      KNOWN_OPERATIONS.forEach((op, outcomes) ->
          outcomes.forEach(o -> counts.computeIfAbsent(op, k -> new TreeMap<>()).put(o, 0L)));
      f.operations()
          .forEach((op, n) ->
              counts.computeIfAbsent(op.operation(), k -> new TreeMap<>()).put(op.outcome(), n));
      CounterSnapshot.Builder operations = CounterSnapshot.builder()
          .name("noneops_operations")
          .help("Operations the agent ended, by kind (apply, upgrade, recovery, repave, config)"
              + " and outcome (applied, upgraded, rolled-back, recovered, refused, failed);"
              + " kept across restarts of the daemon in its state file.");
      counts.forEach((op, outcomes) -> outcomes.forEach(
          (outcome, n) -> operations.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
              .labels(Labels.of("operation", op, "outcome", outcome))
              .value(n)
              .build())));
      out.add(operations.build());

      InfoSnapshot.Builder quarantined = InfoSnapshot.builder()
          .name("noneops_quarantined_target")
          .help("The target version whose upgrade rolled back: not tried again until the"
              + " configuration file changes.");
      f.quarantinedTarget()
          .ifPresent(v -> quarantined.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
              .labels(Labels.of("version", v))
              .build()));
      out.add(quarantined.build());
      out.add(GaugeSnapshot.builder()
          .name("noneops_quarantined")
          .help("Whether a target version is quarantined (1) or not (0).")
          .dataPoint(gauge(Labels.EMPTY, f.quarantinedTarget().isPresent() ? 1 : 0))
          .build());

      out.add(timestamp(
          "noneops_daemon_last_tick_timestamp_seconds",
          "When the daemon last ticked (read its configuration file and checked the units).",
          f.lastTick()));
      out.add(timestamp(
          "noneops_last_success_timestamp_seconds",
          "When an operation of the agent last ended well (applied, upgraded, recovered).",
          f.lastSuccess()));

      GaugeSnapshot.Builder seen = GaugeSnapshot.builder()
          .name("noneops_machine_repave_counter_seen")
          .help("The node's Machine's spec.operations.repaveCounter as the agent last saw it.");
      f.repaveCounterSeen().ifPresent(n -> seen.dataPoint(gauge(Labels.EMPTY, n)));
      out.add(seen.build());
      GaugeSnapshot.Builder acknowledged = GaugeSnapshot.builder()
          .name("noneops_machine_repave_counter_acknowledged")
          .help("The node's Machine's status.operations.repaveCounter (the repaves acknowledged)"
              + " as the agent last saw it.");
      f.repaveCounterAcknowledged().ifPresent(n -> acknowledged.dataPoint(gauge(Labels.EMPTY, n)));
      out.add(acknowledged.build());

      out.add(CounterSnapshot.builder()
          .name("noneops_download_bytes")
          .help("Bytes of artifacts the agent's operations downloaded.")
          .unit(Unit.BYTES)
          .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
              .value(f.bytesDownloaded())
              .build())
          .build());
      out.add(CounterSnapshot.builder()
          .name("noneops_download_verified_bytes")
          .help("Of the bytes downloaded, those whose checksum was verified.")
          .unit(Unit.BYTES)
          .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
              .value(f.bytesVerified())
              .build())
          .build());

      GaugeSnapshot.Builder lastSwitch = GaugeSnapshot.builder()
          .name("noneops_last_switch_over_duration_seconds")
          .help("How long the stack was down during the last switch-over this daemon saw.")
          .unit(Unit.SECONDS);
      f.lastSwitchOver().ifPresent(d -> lastSwitch.dataPoint(gauge(Labels.EMPTY, seconds(d))));
      out.add(lastSwitch.build());
      return new MetricSnapshots(out);
    }

    @Override
    public List<String> getPrometheusNames() {
      return List.of(
          "noneops_active_version",
          "noneops_installed_version",
          "noneops_unit_active",
          "noneops_operations",
          "noneops_quarantined_target",
          "noneops_quarantined",
          "noneops_daemon_last_tick_timestamp_seconds",
          "noneops_last_success_timestamp_seconds",
          "noneops_machine_repave_counter_seen",
          "noneops_machine_repave_counter_acknowledged",
          "noneops_download_bytes",
          "noneops_download_verified_bytes",
          "noneops_last_switch_over_duration_seconds");
    }
  }

  private static MetricSnapshot timestamp(String name, String help, Optional<Instant> at) {
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
    at.ifPresent(t -> b.dataPoint(gauge(Labels.EMPTY, seconds(t))));
    return b.build();
  }

  private static GaugeSnapshot.GaugeDataPointSnapshot gauge(Labels labels, double value) {
    return GaugeSnapshot.GaugeDataPointSnapshot.builder()
        .labels(labels)
        .value(value)
        .build();
  }
}
