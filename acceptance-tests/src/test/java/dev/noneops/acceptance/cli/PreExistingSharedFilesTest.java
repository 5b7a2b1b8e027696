package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Files an operator had at the shared paths before the node came (containerd's configuration, a
 * sysctl preset of the same name) are not the node's: the node takes them over, says so in
 * {@code plan}, and puts them back byte for byte — mode and owner too — when it is reset.
 */
class PreExistingSharedFilesTest {
  private static final Path CONTAINERD_CONFIG = Path.of("/etc/containerd/config.toml");
  private static final Path SYSCTL = Path.of("/etc/sysctl.d/99-kubernetes.conf");
  private static final Path CNI_LINK = Path.of("/opt/cni/bin/bridge");

  private final SimulatedHost host = SimulatedHost.create();
  private final SimCli cli = new SimCli(host);

  private void anOperatorsFiles() throws Exception {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    host.fs()
        .seedFile(CONTAINERD_CONFIG, "# the operator's containerd\nversion = 2\n[plugins]\n", 0640);
    host.fs().seedOwner(CONTAINERD_CONFIG, 1000, 1000);
    host.fs().seedFile(SYSCTL, "vm.swappiness = 10\n", 0600);
    host.fs().seedSymlink(CNI_LINK, "/usr/lib/cni/bridge");
  }

  @Test
  void resetPutsBackWhatWasThereBeforeByteForByteWithModeAndOwner() throws Exception {
    anOperatorsFiles();
    FileTreeSnapshot before = host.snapshot();

    Run boot = cli.run("bootstrap");
    assertThat(boot.exitCode()).as(boot.err()).isZero();
    assertThat(host.ports().files().readString(CONTAINERD_CONFIG))
        .doesNotContain("the operator's containerd");
    Run reset = cli.run("reset", "--yes");

    assertThat(reset.exitCode()).as(reset.out() + reset.err()).isZero();
    FileTreeSnapshot after = host.snapshot();
    for (Path path : List.of(CONTAINERD_CONFIG, SYSCTL, CNI_LINK)) {
      assertThat(after.entry(path.toString()))
          .as(path.toString())
          .isEqualTo(before.entry(path.toString()));
    }
    assertThat(reset.out()).contains("restored " + CONTAINERD_CONFIG);
  }

  @Test
  void theRestoredOwnerSurvivesAPowerLossRightAfterTheReset() throws Exception {
    anOperatorsFiles();
    FileTreeSnapshot before = host.snapshot();
    cli.run("bootstrap");
    cli.run("reset", "--yes");

    host.crash();

    assertThat(host.snapshot().entry(CONTAINERD_CONFIG.toString()))
        .isEqualTo(before.entry(CONTAINERD_CONFIG.toString()));
  }

  @Test
  void anOperatorsPluginBinaryWhereTheNodeLinksItsOwnIsTakenOverAndPutBack() throws Exception {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    host.fs().seedFile(CNI_LINK, "\u007fELF the operator's bridge plugin", 0755);
    FileTreeSnapshot before = host.snapshot();

    Run boot = cli.run("bootstrap");
    assertThat(boot.exitCode()).as(boot.err()).isZero();
    assertThat(host.fs().lstat(CNI_LINK).orElseThrow().isSymlink()).isTrue();
    Run reset = cli.run("reset", "--yes");

    assertThat(reset.exitCode()).as(reset.err()).isZero();
    assertThat(host.snapshot().entry(CNI_LINK.toString()))
        .isEqualTo(before.entry(CNI_LINK.toString()));
  }

  @Test
  void aFileIdenticalToWhatTheNodeWritesIsStillTheOperatorsAndStays() throws Exception {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    cli.run("bootstrap");
    byte[] nodes = host.ports().files().read(SYSCTL);
    cli.run("reset", "--yes");
    host.fs().seedFile(SYSCTL, nodes, 0644);

    cli.run("bootstrap");
    cli.run("reset", "--yes");

    assertThat(host.ports().files().read(SYSCTL))
        .as("the operator's copy, though equal to the node's")
        .isEqualTo(nodes);
  }

  @Test
  void planNamesThePreExistingFilesTheOperationWouldTakeOver() throws Exception {
    anOperatorsFiles();

    Run plan = cli.run("plan", "--json");

    JsonNode doc = new ObjectMapper().readTree(plan.out());
    List<String> takenOver = new ArrayList<>();
    doc.get("takenOver").forEach(n -> takenOver.add(n.asText()));
    assertThat(takenOver).contains(CONTAINERD_CONFIG.toString(), SYSCTL.toString());
    assertThat(cli.run("plan").out())
        .contains("take over (saved, put back at reset): " + CONTAINERD_CONFIG);
  }
}
