package dev.noneops.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.metrics.AgentFigures;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PrometheusAgentMetricsTest {
  static final AgentFigures FIGURES = new AgentFigures(
      Optional.of("1.31.4-abc"),
      List.of("1.31.4-abc", "1.31.5-def"),
      Map.of("kubelet.service", true, "containerd.service", false),
      Map.of(new AgentFigures.Operation("upgrade", "rolled-back"), 2L),
      Optional.of("1.31.5-def"),
      Optional.of(Instant.parse("2026-12-05T00:00:00Z")),
      Optional.of(Instant.parse("2026-12-04T23:00:00Z")),
      OptionalLong.of(3),
      OptionalLong.of(2),
      1000,
      900,
      Optional.of(Duration.ofMillis(12500)));

  @Test
  void theFiguresAreSeriesInTheTextFormat() {
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    metrics.publish(FIGURES);
    metrics.operationEnded("upgrade", "rolled-back", Duration.ofSeconds(42));
    metrics.switchOver(Duration.ofSeconds(12));
    String text = metrics.text();
    assertThat(text)
        .contains("noneops_active_version_info{version=\"1.31.4-abc\"} 1")
        .contains("noneops_installed_version_info{version=\"1.31.5-def\"} 1")
        .contains("noneops_unit_active{unit=\"containerd.service\"} 0.0")
        .contains("noneops_unit_active{unit=\"kubelet.service\"} 1.0")
        .contains("noneops_operations_total{operation=\"upgrade\",outcome=\"rolled-back\"} 2.0")
        .contains("noneops_operations_total{operation=\"apply\",outcome=\"applied\"} 0.0")
        .contains("noneops_quarantined_target_info{version=\"1.31.5-def\"} 1")
        .contains("noneops_quarantined 1.0")
        .contains("noneops_daemon_last_tick_timestamp_seconds 1.7964288E9")
        .contains("noneops_machine_repave_counter_seen 3.0")
        .contains("noneops_machine_repave_counter_acknowledged 2.0")
        .contains("noneops_download_bytes_total 1000.0")
        .contains("noneops_download_verified_bytes_total 900.0")
        .contains("noneops_last_switch_over_duration_seconds 12.5")
        .contains(
            "noneops_operation_duration_seconds_count{operation=\"upgrade\",outcome=\"rolled-back\"} 1")
        .contains("noneops_switch_over_duration_seconds_sum 12.0");
  }
}
