package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A command line the CLI cannot parse is a failure like any other for a {@code --json} caller: a
 * document on stdout of kind {@code USAGE}, valid against the error schema, beside the usual line
 * on stderr.
 */
class JsonUsageErrorsTest {
  private static final Path ERROR_SCHEMA =
      Path.of("..", "docs", "reference", "schemas", "error.schema.json");

  private final SimCli cli = new SimCli(SimulatedHost.create());

  @ParameterizedTest
  @CsvSource({
    "noneops, unknown command 'statsu', --json statsu",
    "status, unknown option '--bogus', --json status --bogus",
    "status, unknown option '--bogus', status --json --bogus",
  })
  void anUnparsableCommandLineIsAUsageDocument(String command, String message, String line)
      throws Exception {
    Run run = cli.run(line.split(" "));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(message);
    assertThat(run.out()).as("the document on stdout").startsWith("{");
    JsonNode doc = new ObjectMapper().readTree(run.out());
    assertThat(doc.get("ok").asBoolean()).isFalse();
    assertThat(doc.get("command").asText()).isEqualTo(command);
    assertThat(doc.at("/error/kind").asText()).isEqualTo("USAGE");
    assertThat(doc.at("/error/exitCode").asInt()).isEqualTo(2);
    assertThat(doc.at("/error/message").asText()).startsWith(message);
    Schema schema;
    try (InputStream in = Files.newInputStream(ERROR_SCHEMA)) {
      schema =
          SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
    }
    assertThat(schema.validate(run.out(), InputFormat.JSON)).isEmpty();
  }
}
