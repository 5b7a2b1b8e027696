package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.noneops.cli.NoneopsCli;
import dev.noneops.cli.output.Json;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code --json} document the CLI prints, and every NDJSON progress line, validates against
 * its JSON Schema in {@code docs/reference/schemas} (draft 2020-12), as printed by the real commands on a
 * simulated host; the schemas are strict enough that a renamed field fails.
 */
class JsonOutputSchemasTest {
  private static final Path SCHEMAS = Path.of("..", "docs", "reference", "schemas");
  private static final Path CONFIG = SimCli.CONFIG;
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  /**
   * Commands with no document: the daemon runs until stopped, completion prints a script, the
   * jar's demo says where the demo runs.
   */
  private static final Set<String> NO_DOCUMENT = Set.of("daemon", "completion", "demo");

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private final SimCli cli = new SimCli(SimulatedHost.create());
  private final Map<String, Schema> schemas = new HashMap<>();

  @Test
  void everyCommandsDocumentMatchesItsSchemaThroughANodesLife() throws IOException {
    cli.configure(CONFIG, BASE.json());
    List<String[]> commands = List.of(
        new String[] {"plan"},
        new String[] {"preflight"},
        new String[] {"status"},
        new String[] {"bootstrap"},
        new String[] {"status"},
        new String[] {"versions"},
        new String[] {"verify"},
        new String[] {"present"},
        new String[] {"allocation-launch-check"},
        new String[] {"version-for"},
        new String[] {"version"},
        new String[] {"apply"},
        new String[] {"restart"},
        new String[] {"stop"},
        new String[] {"start"},
        new String[] {"prune"},
        new String[] {"commit"},
        new String[] {"recover"});
    for (String[] command : commands) {
      assertMatches(command[0], json(command));
    }
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    assertMatches("upgrade", json("upgrade"));
    assertMatches("reset", json("reset", "--dry-run"));
    assertMatches("reset", json("reset", "--yes"));
  }

  @Test
  void updateAgentsDocumentMatchesItsSchema() throws IOException {
    SimCli withAgent = new SimCli(SimulatedHost.create()).withAgent();
    withAgent.configure(CONFIG, BASE.json());
    withAgent.run("bootstrap");

    Run run = withAgent.run("--json", "update-agent");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertMatches("update-agent", run.out());
    assertThat(run.out()).contains("\"result\" : \"UNCHANGED\"");
  }

  @Test
  void aFailureIsTheErrorDocumentWhereverItFailed() throws IOException {
    Run missing = cli.run("--json", "bootstrap", "--config", "/etc/nowhere.json");
    assertThat(missing.exitCode()).isEqualTo(3);
    assertMatches("error", missing.out());

    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.kubeletNeverReady(cli.configure(CONFIG, BASE.withContainerd("1.7.23").json()));
    Run rolledBack = cli.run("--json", "upgrade", "--kubelet-timeout", "1s");
    assertThat(rolledBack.exitCode()).as(rolledBack.err()).isEqualTo(6);
    assertMatches("error", rolledBack.out());
    assertThat(rolledBack.out()).contains("\"failedAt\"", "\"kind\" : \"ROLLED_BACK\"");
  }

  @Test
  void theViolationsOfAnInvalidConfigurationAreTheCausesEachWithItsPathAndReason()
      throws Exception {
    cli.configure(CONFIG, BASE.json());
    String bad = BASE.json()
        .replace("\"MachineName\"", "\"MachineNmae\"")
        .replace("\"v1.31.4\"", "\"v1.31\"");
    cli.host().ports().files().writeDurably(CONFIG, bad, 0600);

    Run run = cli.run("--json", "bootstrap");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertMatches("error", run.out());
    JsonNode causes = Json.MAPPER.readTree(run.out()).get("error").get("causes");
    List<String> paths = new ArrayList<>();
    causes.forEach(c -> {
      assertThat(c.isObject()).as(c.toString()).isTrue();
      assertThat(c.get("reason").asText()).isNotBlank();
      paths.add(c.get("path").asText());
    });
    assertThat(paths).containsExactlyInAnyOrder("MachineNmae", "Cluster.Version");
  }

  @Test
  void theDisownedPathsOfApplyUpgradeAndStatusMatchTheirSchemas() throws IOException {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    Path hostLocal = Path.of("/opt/cni/bin/host-local");
    Path loopback = Path.of("/opt/cni/bin/loopback");
    SimulatedHost host = cli.host();
    host.fs().writeVolatile(Path.of("/opt/cni/bin/.host-local.new"), new byte[] {0x7f}, 0755);
    host.fs().rename(Path.of("/opt/cni/bin/.host-local.new"), hostLocal);

    String apply = json("apply");
    host.fs().writeVolatile(Path.of("/opt/cni/bin/.loopback.new"), new byte[] {0x7f}, 0755);
    host.fs().rename(Path.of("/opt/cni/bin/.loopback.new"), loopback);
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    String upgrade = json("upgrade");
    String status = json("status");

    assertMatches("apply", apply);
    assertThat(apply).contains(hostLocal.toString());
    assertMatches("upgrade", upgrade);
    assertThat(upgrade).contains(loopback.toString()).doesNotContain(hostLocal.toString());
    assertMatches("status", status);
    assertThat(status).contains("\"found\" : \"regular file\"");
    assertThat(errors("status", status.replace("\"found\"", "\"what\""))).isNotEmpty();
  }

  @Test
  void everyProgressLineMatchesTheEventSchema() throws IOException {
    cli.configure(CONFIG, BASE.json());
    Run boot = cli.run("--json", "bootstrap");
    cli.kubeletNeverReady(cli.configure(CONFIG, BASE.withContainerd("1.7.23").json()));
    Run failed = cli.run("--json", "upgrade", "--kubelet-timeout", "1s");

    List<String> lines = new ArrayList<>();
    for (String line : (boot.err() + failed.err()).split("\n")) {
      if (line.startsWith("{")) {
        lines.add(line);
      }
    }
    assertThat(lines)
        .anyMatch(l -> l.contains("\"PROGRESS\""))
        .anyMatch(l -> l.contains("\"FAILED\""));
    for (String line : lines) {
      assertMatches("event", line);
    }
  }

  @Test
  void aRenamedFieldFailsValidation() throws IOException {
    cli.configure(CONFIG, BASE.json());
    String bootstrap = json("bootstrap");
    String status = json("status");

    assertThat(errors("bootstrap", bootstrap.replace("\"running\"", "\"isRunning\"")))
        .extracting(Error::getMessage)
        .anyMatch(m -> m.contains("running"))
        .anyMatch(m -> m.contains("isRunning"));
    assertThat(errors("status", status.replace("\"activeVersion\"", "\"currentVersion\"")))
        .extracting(Error::getMessage)
        .anyMatch(m -> m.contains("activeVersion"));
    assertThat(errors("status", status.replace("\"mainPid\"", "\"pid\"")))
        .as("inside a unit too")
        .isNotEmpty();
    assertThat(errors("status", status.replaceFirst("\\{", "{\"podCount\" : 3, ")))
        .as("status takes new fields")
        .isEmpty();
  }

  @Test
  void everyCommandWithADocumentHasASchemaAndEverySchemaIsDraft2020() throws IOException {
    CommandLine whole = NoneopsCli.commandLine(cli.environment());
    for (CommandLine sub : whole.getSubcommands().values()) {
      String name = sub.getCommandName();
      if (!sub.getCommandSpec().usageMessage().hidden() && !NO_DOCUMENT.contains(name)) {
        assertThat(SCHEMAS.resolve(name + ".schema.json")).as(name).isRegularFile();
      }
    }
    try (var files = Files.list(SCHEMAS)) {
      List<Path> schemaFiles =
          files.filter(f -> f.toString().endsWith(".schema.json")).toList();
      assertThat(schemaFiles).hasSizeGreaterThan(18);
      for (Path file : schemaFiles) {
        assertThat(Files.readString(file))
            .as(file.toString())
            .contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"");
      }
    }
  }

  private String json(String... args) {
    String[] withJson = new String[args.length + 1];
    withJson[0] = "--json";
    System.arraycopy(args, 0, withJson, 1, args.length);
    Run run = cli.run(withJson);
    assertThat(run.out()).as(String.join(" ", args) + ": " + run.err()).startsWith("{");
    return run.out();
  }

  private void assertMatches(String schema, String document) throws IOException {
    assertThat(errors(schema, document)).as(schema + ": " + document).isEmpty();
  }

  private List<Error> errors(String schema, String document) throws IOException {
    Schema s = schemas.get(schema);
    if (s == null) {
      try (InputStream in = Files.newInputStream(SCHEMAS.resolve(schema + ".schema.json"))) {
        s = REGISTRY.getSchema(in);
      }
      schemas.put(schema, s);
    }
    return s.validate(document, InputFormat.JSON);
  }
}
