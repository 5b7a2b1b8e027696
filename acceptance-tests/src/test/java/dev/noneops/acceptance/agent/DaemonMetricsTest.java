package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.machine.RecordingLog;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.ResetResult;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.metrics.PrometheusAgentMetrics;
import dev.noneops.metrics.TextfileExporter;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.metrics.AgentFigures;
import dev.noneops.ports.metrics.AgentMetrics;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * What the daemon shows a fleet, on a simulated host: its figures after an upgrade and a
 * rollback (operations counted by kind and outcome, bytes downloaded and verified, the switch-over
 * timed, the quarantined target), counters that a restarted daemon goes on from, and the metrics
 * file written for node_exporter's textfile collector only into a directory root alone can change.
 */
class DaemonMetricsTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final AgentConfig V3 = SimNode.config("1.31.6", "", "blue");
  private static final Path TEXTFILES = Path.of("/var/lib/prometheus/node-exporter");
  private static final Path PROM = TEXTFILES.resolve("noneops.prom");

  private SimNode lab;
  private final Recorded recorded = new Recorded();

  @BeforeEach
  void aNodeOnV1WithItsAgent() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2).publish(V3);
  }

  private NodeDaemon daemon(AgentMetrics metrics) {
    NodeDaemon[] daemon = new NodeDaemon[1];
    daemon[0] = new NodeDaemon(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        (config, previous) -> {
          Params.Builder b = Params.builder(lab.host.ports())
              .config(config.orElseGet(previous::orElseThrow))
              .events(daemon[0].nodeEvents());
          previous.ifPresent(b::previous);
          return lab.node(b);
        },
        new NodeDaemon.Options(SimNode.AGENT_CONFIG_FILE, Duration.ofSeconds(5), "amd64"),
        NodeDaemon.Listener.NONE,
        NOPLogger.NOP_LOGGER);
    return daemon[0].reportTo(metrics);
  }

  @Test
  void anUpgradeAndARollbackAreCountedTimedAndShown() {
    NodeDaemon daemon = daemon(recorded);
    daemon.start();
    assertThat(recorded.last().activeVersion()).contains(lab.versionOf(V1));
    assertThat(recorded.last().unitsActive()).containsEntry("kubelet.service", true);

    lab.writeDesired(V2);
    daemon.tick();
    AgentFigures upgraded = recorded.last();
    assertThat(upgraded.activeVersion()).contains(lab.versionOf(V2));
    assertThat(upgraded.installedVersions())
        .as("the daemon prunes after a committed upgrade")
        .containsExactly(lab.versionOf(V2));
    assertThat(upgraded.operations())
        .containsEntry(new AgentFigures.Operation("upgrade", "upgraded"), 1L);
    assertThat(upgraded.bytesDownloaded()).as("the target's artifacts").isPositive();
    assertThat(upgraded.bytesVerified()).isEqualTo(upgraded.bytesDownloaded());
    assertThat(upgraded.lastSuccess()).isPresent();
    assertThat(upgraded.lastTick()).isPresent();
    assertThat(upgraded.lastSwitchOver()).isPresent();
    assertThat(recorded.ended).contains("upgrade upgraded");
    assertThat(recorded.switchOvers).isEqualTo(1);

    lab.kubeletNeverReady.add(lab.versionOf(V3));
    lab.writeDesired(V3);
    daemon.tick();
    AgentFigures rolledBack = recorded.last();
    assertThat(rolledBack.activeVersion()).contains(lab.versionOf(V2));
    assertThat(rolledBack.operations())
        .containsEntry(new AgentFigures.Operation("upgrade", "rolled-back"), 1L)
        .containsEntry(new AgentFigures.Operation("upgrade", "upgraded"), 1L);
    assertThat(rolledBack.quarantinedTarget()).contains(lab.versionOf(V3));
    assertThat(rolledBack.bytesDownloaded()).isGreaterThan(upgraded.bytesDownloaded());
    assertThat(recorded.ended).containsExactly("upgrade upgraded", "upgrade rolled-back");
    assertThat(recorded.switchOvers)
        .as(
            "the rollback's: the stack down from the upgrade's stop to the previous version's start")
        .isEqualTo(2);

    AgentState.Counters kept =
        AgentState.read(lab.host.ports().files(), lab.paths).counters();
    assertThat(kept.count("upgrade", "rolled-back")).isEqualTo(1);
    assertThat(kept.bytesDownloaded()).isEqualTo(rolledBack.bytesDownloaded());

    Recorded afterRestart = new Recorded();
    daemon(afterRestart).start();
    assertThat(afterRestart.last().operations())
        .as("a restarted daemon goes on counting where it stopped")
        .containsEntry(new AgentFigures.Operation("upgrade", "rolled-back"), 1L)
        .containsEntry(new AgentFigures.Operation("upgrade", "upgraded"), 1L);
    assertThat(afterRestart.last().bytesDownloaded()).isEqualTo(rolledBack.bytesDownloaded());
  }

  @Test
  void theMetricsFileIsWrittenForNodeExportersTextfileCollector() throws IOException {
    HostFiles files = lab.host.ports().files();
    files.createDirectories(TEXTFILES, 0755);
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    metrics.onChange(new TextfileExporter(
        files, TEXTFILES, () -> lab.host.ports().clock().now(), NOPLogger.NOP_LOGGER));
    NodeDaemon daemon = daemon(metrics);
    daemon.start();
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    lab.writeDesired(V2);
    daemon.tick();

    String prom = new String(files.read(PROM), StandardCharsets.UTF_8);
    assertThat(prom)
        .contains("noneops_active_version_info{version=\"" + lab.versionOf(V1) + "\"} 1")
        .contains("noneops_operations_total{operation=\"upgrade\",outcome=\"rolled-back\"} 1.0")
        .contains("noneops_quarantined_target_info{version=\"" + lab.versionOf(V2) + "\"} 1")
        .contains("noneops_unit_active{unit=\"kubelet.service\"} 1.0")
        .contains("noneops_switch_over_duration_seconds_count 1");
    assertThat(files.lstat(PROM))
        .hasValueSatisfying(m -> assertThat(m.mode() & 07777).isEqualTo(0644));
    assertThat(files.list(TEXTFILES)).as("no temp file left").containsExactly("noneops.prom");
  }

  @Test
  void resetTakesTheAgentsMetricsFileAwayAndLeavesTheCollectorsDirectoryAndOtherFiles()
      throws IOException {
    HostFiles files = lab.host.ports().files();
    files.createDirectories(TEXTFILES, 0755);
    lab.host.fs().seedFile(TEXTFILES.resolve("smartmon.prom"), "smartmon_device_active 1\n", 0644);
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    metrics.onChange(new TextfileExporter(
        files, TEXTFILES, () -> lab.host.ports().clock().now(), NOPLogger.NOP_LOGGER));
    NodeDaemon daemon = daemon(metrics);
    daemon.start();
    assertThat(files.exists(PROM)).isTrue();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(files.exists(PROM))
        .as("a stale file would have node_exporter report a removed node's version forever")
        .isFalse();
    assertThat(files.list(TEXTFILES)).containsExactly("smartmon.prom");
  }

  @Test
  void aFileOfTheSameNameThatIsNotTheAgentsMetricsIsLeftAlone() throws IOException {
    lab.host.ports().files().createDirectories(TEXTFILES, 0755);
    lab.host.fs().seedFile(PROM, "# an operator's own file\nsite_up 1\n", 0644);

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(new String(lab.host.ports().files().read(PROM), StandardCharsets.UTF_8))
        .isEqualTo("# an operator's own file\nsite_up 1\n");
  }

  @Test
  void aTextfileDirectoryAnotherUserCanChangeIsNotWrittenInto() throws IOException {
    HostFiles files = lab.host.ports().files();
    files.createDirectories(TEXTFILES, 0755);
    files.chown(TEXTFILES, 1000, 1000);
    RecordingLog log = new RecordingLog();
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    metrics.onChange(
        new TextfileExporter(files, TEXTFILES, () -> lab.host.ports().clock().now(), log));
    NodeDaemon daemon = daemon(metrics);
    daemon.start();
    daemon.tick();
    daemon.tick();

    assertThat(files.exists(PROM)).isFalse();
    assertThat(log.errors())
        .singleElement()
        .asString()
        .contains(TEXTFILES.toString())
        .contains("owner uid 1000")
        .contains("other than root");
  }

  /** What the daemon reported. */
  private static final class Recorded implements AgentMetrics {
    final List<AgentFigures> figures = new ArrayList<>();
    final List<String> ended = new ArrayList<>();
    int switchOvers;

    @Override
    public void publish(AgentFigures f) {
      figures.add(f);
    }

    @Override
    public void operationEnded(String operation, String outcome, Duration took) {
      ended.add(operation + " " + outcome);
    }

    @Override
    public void switchOver(Duration took) {
      switchOvers++;
    }

    AgentFigures last() {
      assertThat(figures).as("figures published").isNotEmpty();
      return figures.get(figures.size() - 1);
    }
  }
}
