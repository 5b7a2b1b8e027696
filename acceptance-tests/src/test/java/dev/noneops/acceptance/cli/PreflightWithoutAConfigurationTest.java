package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.output.Json;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code noneops preflight} on a host with no configuration yet checks what needs none (the
 * host, its ports, a stack of its own, free space) and names the checks it skipped for want of
 * one; with a configuration it runs them all. A {@code --config} that names a missing file is
 * still refused (exit 3).
 */
class PreflightWithoutAConfigurationTest {
  private static final List<String> NEED_A_CONFIGURATION =
      List.of("localdns-port", "shared-files", "artifact-sources", "agent-files");

  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void withoutAConfigurationTheHostIsCheckedAndTheSkippedChecksAreNamed() {
    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err() + run.out()).isEqualTo(ExitCode.OK.code());
    assertThat(run.out())
        .contains("ok    root ", "ok    systemd ", "ok    cgroup-v2 ", "ok    swap ")
        .contains("kubelet-port", "foreign-stack", "free-space");
    for (String skipped : NEED_A_CONFIGURATION) {
      assertThat(run.out().lines().filter(l -> l.matches("^(ok|warn|FAIL) +" + skipped + " .*")))
          .as(skipped)
          .isEmpty();
    }
    assertThat(run.out())
        .contains("skipped, no configuration at " + SimCli.CONFIG
            + " (pass --config FILE): localdns-port, shared-files, artifact-sources,"
            + " agent-files");
  }

  @Test
  void withoutAConfigurationTheJsonDocumentListsTheSkippedChecksAndMatchesItsSchema()
      throws Exception {
    Run run = cli.run("--json", "preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK.code());
    JsonNode doc = Json.MAPPER.readTree(run.out());
    List<String> skipped = new ArrayList<>();
    doc.get("skipped").forEach(s -> skipped.add(s.asText()));
    assertThat(skipped).isEqualTo(NEED_A_CONFIGURATION);
    Schema schema;
    try (InputStream in = Files.newInputStream(
        Path.of("..", "docs", "reference", "schemas", "preflight.schema.json"))) {
      schema =
          SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
    }
    assertThat(schema.validate(run.out(), InputFormat.JSON)).isEmpty();
  }

  @Test
  void withAConfigurationEveryCheckRunsAndNoneIsSkipped() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.OK.code());
    assertThat(run.out()).contains("artifact-sources", "shared-files", "localdns-port");
    assertThat(run.out()).doesNotContain("skipped");
  }

  @Test
  void withoutRootAConfigurationOnlyRootCanReadIsSkippedAndSaidSo() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    Run run = cli.asRoot(false).run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(run.out())
        .startsWith("FAIL  root ")
        .contains("skipped, only root can read the configuration at " + SimCli.CONFIG + ": ");
  }

  @Test
  void aConfigNamingAMissingFileIsStillRefused() {
    Run run = cli.run("preflight", "--config", "/etc/nowhere.json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.err()).contains("/etc/nowhere.json");
  }
}
