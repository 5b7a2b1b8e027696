package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/reference/commands.md} is the command model rendered ({@link CommandsReference}), so
 * the reference cannot drift from the CLI. After an intended change to a command, rewrite it with
 * {@code mvn -B -ntp -pl adapter-cli -am test -Dtest=CommandsReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dnoneops.docs.update=true} and commit it.
 */
class CommandsReferenceTest {
  private static final String UPDATE = "noneops.docs.update";
  private static final String REGENERATE =
      "mvn -B -ntp -pl adapter-cli -am test -Dtest=CommandsReferenceTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true";
  private static final Path FILE = Path.of("..", "docs", "reference", "commands.md");

  @Test
  void theCommandsReferenceIsTheCommandModelRendered() throws IOException {
    String actual = CommandsReference.markdown(NoneopsCli.commandLine(CliRun.NO_HOST));
    if (Boolean.getBoolean(UPDATE)) {
      Files.writeString(FILE, actual, StandardCharsets.UTF_8);
    }
    String expected =
        Files.isRegularFile(FILE) ? Files.readString(FILE, StandardCharsets.UTF_8) : "";
    List<String> diff = diff(expected.lines().toList(), actual.lines().toList());
    assertThat(diff)
        .withFailMessage(
            "docs/reference/commands.md differs from the command model (- the file, + the model):%n"
                + "%s%nif the change is intended, run%n  %s%nand commit the rewritten file",
            String.join(System.lineSeparator(), diff), REGENERATE)
        .isEmpty();
  }

  @Test
  void everyVisibleCommandHasASectionWithItsSynopsisAndEachOfItsOptions() {
    String md = CommandsReference.markdown(NoneopsCli.commandLine(CliRun.NO_HOST));
    NoneopsCli.commandLine(CliRun.NO_HOST).getSubcommands().values().forEach(sub -> {
      String name = sub.getCommandSpec().qualifiedName();
      if (sub.getCommandSpec().usageMessage().hidden()) {
        assertThat(md).as(name).doesNotContain("## " + name + "\n");
        return;
      }
      assertThat(md).as(name).contains("## " + name + "\n", "```text\n" + name);
      sub.getCommandSpec().options().stream()
          .filter(o -> !o.hidden())
          .forEach(o -> assertThat(md).as(name + " " + o.longestName()).contains(o.longestName()));
    });
  }

  /** The lines only one side has, each with its line number there, in file order (an LCS diff). */
  static List<String> diff(List<String> expected, List<String> actual) {
    int n = expected.size();
    int m = actual.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] = expected.get(i).equals(actual.get(j))
            ? lcs[i + 1][j + 1] + 1
            : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
        i++;
        j++;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        out.add(String.format("+%4d: %s", j + 1, actual.get(j)));
        j++;
      } else {
        out.add(String.format("-%4d: %s", i + 1, expected.get(i)));
        i++;
      }
    }
    return out;
  }
}
