package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.ports.commands.Command;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops status} shows what an operator asks first — the versions with their sizes, each
 * unit with its uptime, how many pods run — and its {@code --json} document only gains fields.
 */
class StatusOnSimulatedHostTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());
  private String version;

  @BeforeEach
  void bootstrapped() {
    version = cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.host()
        .commands()
        .register(
            List.of("ctr"),
            (Command c) -> c.argv().contains("tasks")
                ? CommandOutcome.ok("TASK PID STATUS\nsandbox1 10 RUNNING\napp1 11 RUNNING\n")
                : CommandOutcome.ok("sandbox1\n"));
  }

  @Test
  void theTextShowsSizesUptimeAndPods() {
    cli.host().clock().advance(Duration.ofMinutes(90));

    Run run = cli.run("status");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<String> lines = List.of(run.out().split("\n"));
    assertThat(lines.get(1)).matches("active:    " + version + " \\(\\d+\\.\\d KiB\\)");
    assertThat(lines.get(2)).matches("installed: " + version + " \\(\\d+\\.\\d KiB\\)");
    assertThat(lines)
        .anySatisfy(l -> assertThat(l)
            .matches("  kubelet\\.service +active/running \\(pid \\d+\\) since \\S+Z, up 1h 30m"));
    assertThat(lines).contains("pods:      1 running (2 containerd tasks in k8s.io)");
    assertThat(lines)
        .as("this CLI installs no agent")
        .contains("daemon:    not installed (noneops-agent.service not found)");
  }

  @Test
  void theJsonDocumentKeepsEveryFieldItHadAndAddsSizesUptimeAndPods() throws Exception {
    Run run = cli.run("status", "--json");

    JsonNode doc = new ObjectMapper().readTree(run.out());
    List<String> keys = new ArrayList<>();
    doc.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
            "activeVersion",
            "agent",
            "agentUnit",
            "appliedConfig",
            "appliedMachineName",
            "command",
            "disowned",
            "gateUnit",
            "installed",
            "installedVersions",
            "needsRoot",
            "pods",
            "running",
            "schemaVersion",
            "systemdError",
            "units",
            "upgradeInFlight",
            "versionSizes");
    List<String> unitKeys = new ArrayList<>();
    doc.get("units").get("kubelet.service").fieldNames().forEachRemaining(unitKeys::add);
    assertThat(unitKeys).containsExactly("active", "activeSince", "load", "mainPid", "sub");
    assertThat(doc.get("pods").toString())
        .isEqualTo("{\"running\":1,\"tasks\":2,\"unknownBecause\":null}");
    assertThat(doc.get("versionSizes").get(0).get("version").asText()).isEqualTo(version);
    assertThat(doc.get("versionSizes").get(0).get("bytes").asLong()).isPositive();
    assertThat(doc.get("agent").has("systemdUnreachableSince"))
        .as("said by a running agent, null when the command inspected the host itself")
        .isTrue();
    assertThat(doc.get("agent").get("systemdUnreachableSince").isNull()).isTrue();
  }

  @Test
  void aStoppedStackHasNoUptimeAndUnknownPods() {
    assertThat(cli.run("stop").exitCode()).isZero();

    Run run = cli.run("status");

    assertThat(run.out())
        .contains("  kubelet.service      inactive/dead\n")
        .contains("pods:      unknown (containerd is not active)");
  }
}
