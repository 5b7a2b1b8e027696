package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.output.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliBasicsTest {
  private static final CliEnvironment NO_HOST = CliRun.NO_HOST;

  @Test
  void versionPrintsTheBuildVersionWithoutTouchingTheHost() {
    CliRun run = CliRun.of(NO_HOST, "version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("noneops 1.2.3-test (Java ");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void versionJsonCarriesTheSchemaVersionAndSortedKeys() throws Exception {
    CliRun run = CliRun.of(NO_HOST, "version", "--json");

    JsonNode doc = Json.MAPPER.readTree(run.out());
    assertThat(doc.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
    assertThat(doc.get("command").asText()).isEqualTo("version");
    assertThat(doc.get("version").asText()).isEqualTo("1.2.3-test");
    List<String> keys = new ArrayList<>();
    doc.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).isSorted();
  }

  @Test
  void jsonAndVerboseWorkBeforeTheSubcommandToo() throws Exception {
    CliRun run = CliRun.of(NO_HOST, "--json", "version");

    assertThat(run.exitCode()).isZero();
    assertThat(Json.MAPPER.readTree(run.out()).get("command").asText()).isEqualTo("version");
  }

  @Test
  void anUnknownCommandIsAUsageErrorOnOneLinePlusAHint() {
    CliRun run = CliRun.of(NO_HOST, "frobnicate");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines()).hasSize(2);
    assertThat(run.err()).contains("frobnicate").contains("--help");
  }

  @Test
  void noCommandAtAllIsAUsageError() {
    assertThat(CliRun.of(NO_HOST).exitCode()).isEqualTo(2);
  }

  @Test
  void helpDocumentsEveryExitCode() {
    CliRun run = CliRun.of(NO_HOST, "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Exit codes:");
    for (ExitCode code : ExitCode.values()) {
      assertThat(run.out())
          .containsPattern("\\b" + code.code() + "\\s+"
              + java.util.regex.Pattern.quote(
                  code.meaning().substring(0, Math.min(20, code.meaning().length()))));
    }
  }

  @Test
  void theHelpsExitCode3AlsoNamesAFileRootWouldFollowThatOthersCanWrite() {
    String help = CliRun.of(NO_HOST, "--help").out().replaceAll("\\s+", " ");

    assertThat(help)
        .contains(" 3 the agent configuration is unreadable or invalid")
        .contains("or a file root would follow (the configuration file, the agent's java) is"
            + " writable by a user or group other than root; nothing changed");
  }

  @Test
  void theHelpsExitCode5SaysHowLongAMutatingCommandWaitedForTheLock() {
    String help = CliRun.of(NO_HOST, "--help").out().replaceAll("\\s+", " ");

    assertThat(help)
        .contains(" 5 another noneops operation holds the node lock, waited for up to"
            + " --lock-timeout (60 s by default); nothing changed, retry when it finished");
  }

  @Test
  void theExitCodeTableIsInTheRootsHelpOnlyAndASubcommandsHelpEndsPointingAtIt() {
    List<String> names = new ArrayList<>();
    NoneopsCli.SUBCOMMANDS.forEach(sub -> names.add(sub.name()));
    names.add("completion");
    for (String name : names) {
      String help = CliRun.of(NO_HOST, name, "--help").out();

      assertThat(help).as(name).doesNotContain("Exit codes:");
      assertThat(help.strip().lines().reduce((a, b) -> b).orElseThrow())
          .as(name)
          .contains("noneops --help")
          .contains("man noneops");
    }
  }

  @Test
  void exitCodesAreDistinctAndKeepTheirConventionalValues() {
    assertThat(ExitCode.OK.code()).isZero();
    assertThat(ExitCode.FAILURE.code()).isEqualTo(1);
    assertThat(ExitCode.USAGE.code()).isEqualTo(2);
    assertThat(java.util.Arrays.stream(ExitCode.values())
            .map(ExitCode::code)
            .distinct()
            .count())
        .isEqualTo(ExitCode.values().length);
  }

  @Test
  void completionPrintsABashScript() {
    CliRun run = CliRun.of(NO_HOST, "completion");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("complete -F").contains("noneops");
  }
}
