package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.output.Json;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops status} run by a user who is not root shows what that user can read (the
 * versions, the units, the stack) and says which parts only root can read, instead of failing on
 * the first file it may not read.
 */
class StatusWithoutRootTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @BeforeEach
  void bootstrapped() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    Run bootstrap = cli.run("bootstrap");
    assertThat(bootstrap.exitCode()).as(bootstrap.err()).isZero();
    cli.asRoot(false);
  }

  @Test
  void statusShowsWhatItCanAndSaysWhatNeedsRoot() {
    Run run = cli.run("status");

    assertThat(run.exitCode()).as(run.err() + run.out()).isEqualTo(ExitCode.OK.code());
    assertThat(run.out())
        .contains("node:      installed")
        .contains("stack:     running")
        .contains("kubelet.service")
        .contains("needs root:")
        .contains("the applied configuration");
    assertThat(run.out()).doesNotContain("applied:   none recorded");
    assertThat(run.err()).doesNotContain("EACCES");
  }

  @Test
  void statusJsonNamesWhatNeedsRoot() throws Exception {
    Run run = cli.run("--json", "status");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK.code());
    JsonNode doc = Json.MAPPER.readTree(run.out());
    assertThat(doc.get("running").asBoolean()).isTrue();
    assertThat(doc.get("needsRoot").toString()).contains("the applied configuration");
  }
}
