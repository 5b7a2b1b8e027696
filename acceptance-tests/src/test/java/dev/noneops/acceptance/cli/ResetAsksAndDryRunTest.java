package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.output.Json;
import dev.noneops.ports.systemd.ActiveState;
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
 * {@code noneops reset} removes the node only when told to: with {@code --yes}, or when the
 * operator says yes on a terminal; on a stdin that is not a terminal it refuses in one line and
 * changes nothing. {@code --dry-run} prints what it would remove and changes nothing.
 */
class ResetAsksAndDryRunTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @BeforeEach
  void bootstrapped() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    Run bootstrap = cli.run("bootstrap");
    assertThat(bootstrap.exitCode()).as(bootstrap.err()).isZero();
  }

  @Test
  void withoutYesOnAStdinThatIsNoTerminalResetRefusesInOneLineAndChangesNothing() {
    FileTreeSnapshot before = cli.host().snapshot();

    Run reset = cli.run("reset");

    assertThat(reset.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(reset.out()).isEmpty();
    assertThat(reset.err().strip().lines()).hasSize(1);
    assertThat(reset.err()).startsWith("noneops reset: ").contains("--yes", "nothing was changed");
    assertThat(cli.host().snapshot()).isEqualTo(before);
    assertThat(cli.host().systemd().status("kubelet.service").active())
        .isEqualTo(ActiveState.ACTIVE);
    assertThat(cli.run("present").exitCode()).isZero();
  }

  @Test
  void withYesResetRemovesTheNodeWithoutAsking() {
    Run reset = cli.run("reset", "--yes");

    assertThat(reset.exitCode()).as(reset.err() + reset.out()).isZero();
    assertThat(reset.out()).contains("reset complete");
    assertThat(cli.run("present").exitCode()).isEqualTo(ExitCode.ABSENT.code());
  }

  @Test
  void onATerminalResetAsksAndANoChangesNothing() {
    FileTreeSnapshot before = cli.host().snapshot();

    Run reset = cli.onATerminalAnswering("n").run("reset");

    assertThat(reset.exitCode()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(reset.err()).contains("Remove the node", "[y/N]", "nothing was changed");
    assertThat(cli.host().snapshot()).isEqualTo(before);
    assertThat(cli.run("present").exitCode()).isZero();
  }

  @Test
  void onATerminalResetAsksAndAYesRemovesTheNode() {
    Run reset = cli.onATerminalAnswering("y").run("reset");

    assertThat(reset.exitCode()).as(reset.err() + reset.out()).isZero();
    assertThat(reset.err()).contains("Remove the node", "[y/N]");
    assertThat(cli.run("present").exitCode()).isEqualTo(ExitCode.ABSENT.code());
  }

  @Test
  void dryRunPrintsWhatResetWouldRemoveAndChangesNothing() throws Exception {
    FileTreeSnapshot before = cli.host().snapshot();

    Run dry = cli.run("reset", "--dry-run");

    assertThat(dry.exitCode()).as(dry.err() + dry.out()).isZero();
    assertThat(dry.out())
        .contains(
            "would stop kubelet.service",
            "would remove /etc/systemd/system/kubelet.service",
            "would remove /var/lib/kubelet",
            "would remove /opt/unbounded/node",
            "nothing was changed");
    assertThat(cli.host().snapshot()).isEqualTo(before);
    assertThat(cli.host().systemd().status("kubelet.service").active())
        .isEqualTo(ActiveState.ACTIVE);
    assertThat(cli.run("present").exitCode()).isZero();

    JsonNode plan = Json.MAPPER.readTree(cli.run("--json", "reset", "--dry-run").out());
    List<String> planned = new ArrayList<>();
    plan.get("wouldRemove").forEach(s -> planned.add(s.get("subject").asText()));
    JsonNode reset = Json.MAPPER.readTree(cli.run("--json", "reset", "--yes").out());
    assertThat(reset.get("complete").asBoolean()).isTrue();
    List<String> unitFilesRemoved = new ArrayList<>();
    reset.get("removed").forEach(r -> {
      if (r.get("action").asText().equals("UNIT_FILE_REMOVED")) {
        unitFilesRemoved.add(r.get("subject").asText());
      }
    });
    assertThat(planned)
        .as("the dry run names every unit file the reset removed")
        .containsAll(unitFilesRemoved);
  }

  @Test
  void dryRunNamesEachThingOnceAndAFileFromBeforeTheNodeAsPutBack() throws Exception {
    SimCli fresh = new SimCli(SimulatedHost.create());
    fresh.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    fresh
        .host()
        .fs()
        .seedFile(Path.of("/etc/sysctl.d/99-kubernetes.conf"), "vm.swappiness = 10\n", 0600);
    assertThat(fresh.run("bootstrap").exitCode()).isZero();

    JsonNode plan =
        Json.MAPPER.readTree(fresh.run("--json", "reset", "--dry-run").out());
    List<String> subjects = new ArrayList<>();
    plan.get("wouldRemove").forEach(s -> subjects.add(s.get("subject").asText()));

    assertThat(subjects).doesNotHaveDuplicates();
    assertThat(fresh.run("reset", "--dry-run").out())
        .contains("would restore /etc/sysctl.d/99-kubernetes.conf (the file from before the node");
  }

  @Test
  void dryRunOnAHostWithoutANodeSaysSo() {
    cli.run("reset", "--yes");
    FileTreeSnapshot before = cli.host().snapshot();

    Run dry = cli.run("reset", "--dry-run");

    assertThat(dry.exitCode()).isZero();
    assertThat(dry.out()).contains("no node on this host");
    assertThat(cli.host().snapshot()).isEqualTo(before);
  }
}
