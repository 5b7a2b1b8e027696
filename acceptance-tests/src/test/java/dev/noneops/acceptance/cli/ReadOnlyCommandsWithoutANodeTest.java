package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import org.junit.jupiter.api.Test;

/**
 * On a host without a node the read-only commands say so and succeed, as {@code verify} does: a
 * listing never speaks of pruning, and {@code present} answers "absent" with an exit code of its
 * own, not the one for a failed operation.
 */
class ReadOnlyCommandsWithoutANodeTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void versionsSaysThereIsNoNodeAndSucceeds() {
    Run run = cli.run("versions");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("no node on this host");
    assertThat(run.out() + run.err()).doesNotContain("prune");
  }

  @Test
  void versionsAsJsonListsNoVersion() throws Exception {
    Run run = cli.run("--json", "versions");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode doc = new ObjectMapper().readTree(run.out());
    assertThat(doc.get("versions")).isEmpty();
    assertThat(doc.get("activeVersion").isNull()).isTrue();
  }

  @Test
  void presentAnswersAbsentWithItsOwnExitCode() {
    Run run = cli.run("present");

    assertThat(run.out().strip()).isEqualTo("absent");
    assertThat(run.exitCode()).isEqualTo(8).isNotEqualTo(1);
  }

  @Test
  void presentSucceedsOnABootstrappedHost() {
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();

    Run run = cli.run("present");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("present");
  }
}
