package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.cli.ExitCode;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops preflight} as an operator reads it: one line per check ({@code ok}, {@code warn}
 * or {@code FAIL}, the check, what it found), then what to do about each warning and failure, and
 * a verdict; exit 0 unless a check failed (7, as every check command); {@code --json} a stable
 * document. A bootstrap stopped by a failed check says so on one line and changes nothing.
 */
class PreflightOnSimulatedHostTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @BeforeEach
  void configured() {
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
  }

  private static List<String> lines(String out) {
    return List.of(out.split("\n"));
  }

  @Test
  void aCleanHostPassesWithOneLinePerCheckAndTheWarningsRemedy() {
    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK.code());
    List<String> lines = lines(run.out());
    assertThat(lines.subList(0, 6))
        .containsExactly(
            "ok    root                  running as root",
            "ok    systemd               systemd 252, running",
            "ok    cgroup-v2             the unified (v2) hierarchy is mounted",
            "ok    kernel-modules        overlay, br_netfilter loaded, built in or loadable",
            "warn  sysctls               13 of 13 not in force: kernel.keys.root_maxbytes=(absent),"
                + " kernel.keys.root_maxkeys=(absent), kernel.panic=(absent),"
                + " kernel.panic_on_oops=(absent) and 9 more",
            "ok    swap                  off");
    assertThat(lines.subList(6, 13))
        .containsExactly(
            "ok    kubelet-healthz-port  127.0.0.1:10248/tcp is free for kubelet.service",
            "ok    kubelet-port          0.0.0.0:10250/tcp is free for kubelet.service",
            "ok    localdns-port         169.254.20.10:53/udp+tcp is free for localdns.service",
            "ok    foreign-stack         no kubelet or containerd of the host's own",
            "ok    shared-files          nothing of the host's own at the paths the node writes",
            "ok    free-space            100.0 GiB free under /opt/unbounded/node",
            lines.get(12));
    assertThat(lines.get(12)).startsWith("ok    artifact-sources      ").contains(" URLs answer (");
    assertThat(lines.subList(13, lines.size()))
        .containsExactly(
            "",
            "What to do:",
            "  sysctls               none: bootstrap applies them (loading br_netfilter first)",
            "preflight passed with 1 warning");
  }

  @Test
  void aFailedCheckIsListedWithWhatToDoAndExitsUnhealthy() {
    cli.host().facts().swaps(List.of("/swap.img"));

    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(lines(run.out()))
        .contains("FAIL  swap                  on: /swap.img")
        .contains("  swap                  turn it off (swapoff -a) and remove it from /etc/fstab;"
            + " kubelet does not start with swap on")
        .last()
        .isEqualTo(
            "preflight FAILED: 1 check failed; bootstrap would stop before changing" + " anything");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void notRootIsAFailedCheckNotARefusal() {
    Run run = cli.asRoot(false).run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(lines(run.out()))
        .first()
        .isEqualTo("FAIL  root                  not running as root");
  }

  @Test
  void theJsonDocumentListsEveryCheckWithItsVerdictAndTheFailedAndWarnedOnes() throws Exception {
    cli.host().facts().swaps(List.of("/swap.img"));

    Run run = cli.run("--json", "preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    JsonNode doc = new ObjectMapper().readTree(run.out());
    List<String> keys = new ArrayList<>();
    doc.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly("checks", "command", "failed", "ok", "schemaVersion", "warned");
    assertThat(doc.get("command").asText()).isEqualTo("preflight");
    assertThat(doc.get("ok").asBoolean()).isFalse();
    assertThat(doc.get("failed").toString()).isEqualTo("[\"swap\"]");
    assertThat(doc.get("warned").toString()).isEqualTo("[\"sysctls\"]");
    assertThat(doc.get("checks")).hasSize(13);
    JsonNode swap = doc.get("checks").get(5);
    assertThat(swap.toString())
        .isEqualTo("{\"detail\":\"on: /swap.img\",\"name\":\"swap\",\"remedy\":\"turn it off"
            + " (swapoff -a) and remove it from /etc/fstab; kubelet does not start with swap"
            + " on\",\"verdict\":\"fail\"}");
    assertThat(doc.get("checks").get(0).get("remedy").asText()).isEmpty();
  }

  @Test
  void aBootstrapStoppedByAFailedCheckSaysSoOnOneLineAndChangesNothing() {
    cli.host().facts().swaps(List.of("/swap.img"));
    FileTreeSnapshot before = cli.host().snapshot();

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(lines(boot.err()))
        .last()
        .isEqualTo("noneops bootstrap: failed at bootstrap › preflight: preflight failed: swap"
            + " (on: /swap.img); nothing was changed (noneops preflight says what to do)");
    assertThat(cli.host().snapshot().diff(before)).isEmpty();
  }

  @Test
  void aBootstrapPastAWarningSaysWhatWarnedBesideItsResultAndInItsJson() throws Exception {
    cli.host().facts().usableBytes(5L << 30);

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.OK.code());
    List<String> out = lines(boot.out());
    assertThat(out)
        .as("the free-space warning; not the sysctls, which the bootstrap applied")
        .hasSize(2);
    assertThat(out.get(0))
        .isEqualTo("warning: free-space: 5.0 GiB free under /opt/unbounded/node; an upgrade"
            + " installs a second version beside the active one, and images need room: keep"
            + " 10.0 GiB free");
    assertThat(out.get(1)).startsWith("bootstrapped version ");

    cli.run("reset", "--yes");
    Run json = cli.run("--json", "bootstrap");
    assertThat(json.exitCode()).as(json.err()).isEqualTo(ExitCode.OK.code());
    JsonNode warnings = new ObjectMapper().readTree(json.out()).get("warnings");
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0).get("name").asText()).isEqualTo("free-space");
    assertThat(warnings.get(0).get("verdict").asText()).isEqualTo("warn");
  }

  @Test
  void theHostsOwnNoneopsCommandIsAmongTheFilesTakenOverUnlessNoAgentIsInstalled()
      throws Exception {
    cli.withAgent();
    cli.host().fs().seedFile(Path.of("/usr/local/bin/noneops"), "#!/bin/sh\n", 0755);

    Run withAgent = cli.run("preflight");
    Run noAgent = cli.run("preflight", "--no-agent");

    assertThat(withAgent.exitCode()).as(withAgent.err()).isEqualTo(ExitCode.OK.code());
    assertThat(lines(withAgent.out()))
        .anyMatch(l -> l.startsWith("warn  shared-files ") && l.contains("/usr/local/bin/noneops"));
    assertThat(lines(noAgent.out()))
        .anyMatch(l -> l.startsWith("ok    shared-files "))
        .noneMatch(l -> l.contains("/usr/local/bin/noneops"));
  }

  @Test
  void theAgentsFilesThatOnlyRootCanChangePassAsACheck() {
    cli.withAgent();

    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK.code());
    assertThat(lines(run.out()))
        .contains("ok    agent-files           only root can change the configuration file "
            + SimCli.CONFIG + " and the java /usr/lib/jvm/java-17/bin/java");
  }

  @Test
  void aJavaInAUsersHomeFailsTheAgentFilesCheckNamingTheEntryItsOwnerAndMode() throws Exception {
    cli.withAgent();
    cli.host().fs().seedDirectory(Path.of("/usr/lib/jvm"), 0777);

    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(lines(run.out()))
        .contains("FAIL  agent-files           the agent's java /usr/lib/jvm/java-17/bin/java is"
            + " refused: /usr/lib/jvm (owner 0, mode 0777) is writable by its group and by"
            + " others; root follows only a file that no user or group but root can write, nor"
            + " any directory above it");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aConfigurationFileAUserOwnsFailsTheAgentFilesCheckAlsoInTheJson() throws Exception {
    cli.withAgent();
    cli.host().fs().seedOwner(SimCli.CONFIG, 1000, 1000);

    Run run = cli.run("--json", "preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    JsonNode doc = new ObjectMapper().readTree(run.out());
    assertThat(doc.get("failed").toString()).isEqualTo("[\"agent-files\"]");
    JsonNode check = doc.get("checks").get(doc.get("checks").size() - 1);
    assertThat(check.get("name").asText()).isEqualTo("agent-files");
    assertThat(check.get("detail").asText())
        .contains(SimCli.CONFIG.toString(), "owner 1000", "other than root");
  }
}
