package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code completion} prints a shell script, which has no JSON form: asked for {@code --json}, it
 * refuses as a usage error with its document instead of printing a script where a JSON reader
 * waits for a document.
 */
class CompletionWithJsonTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @ParameterizedTest
  @ValueSource(strings = {"--json completion", "completion --json"})
  void completionAskedForJsonIsAUsageErrorWithItsDocument(String line) throws Exception {
    Run run = cli.run(line.split(" "));

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(2);
    assertThat(run.out()).as("no script on stdout").doesNotContain("complete -F");
    assertThat(run.out()).startsWith("{");
    JsonNode doc = new ObjectMapper().readTree(run.out());
    assertThat(doc.at("/error/kind").asText()).isEqualTo("USAGE");
    assertThat(doc.at("/error/message").asText()).contains("completion").contains("--json");
  }
}
