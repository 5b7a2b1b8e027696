package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public API of every product and testkit module is what {@code <module>/api/<module>.api}
 * says it is, so a change to it is seen in review. After an intended change, rewrite the files
 * with {@code mvn -B -ntp -pl acceptance-tests -am test -Dtest=PublicApiTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dnoneops.api.update=true} and commit them.
 */
class PublicApiTest {
  private static final String UPDATE = "noneops.api.update";
  private static final String ACCEPT =
      "mvn -B -ntp -pl acceptance-tests -am test -Dtest=PublicApiTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true";

  static Stream<String> modules() {
    return Stream.of(
        "ports",
        "core",
        "daemon",
        "adapter-systemd-dbus",
        "adapter-host-fs",
        "adapter-kubernetes",
        "adapter-metrics",
        "adapter-cli",
        "testkit",
        "testkit-contracts",
        "testkit-fixtures");
  }

  @ParameterizedTest
  @MethodSource("modules")
  void theModulesPublicApiIsTheCheckedInListing(String module) throws IOException {
    List<String> actual = ApiListing.of(classesOf(module), getClass().getClassLoader());
    Path file = SourceTree.root().resolve(module).resolve("api").resolve(module + ".api");
    if (Boolean.getBoolean(UPDATE)) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, String.join("\n", actual) + "\n", StandardCharsets.UTF_8);
    }
    assertThat(actual).as("public API of %s", module).isNotEmpty();
    List<String> expected =
        Files.isRegularFile(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    List<String> changes = ApiDiff.between(expected, actual);
    assertThat(changes)
        .withFailMessage(
            "the public API of %s differs from %s:%n%s%nif the change is intended, run%n  %s%n"
                + "and commit the rewritten file",
            module,
            SourceTree.root().relativize(file),
            String.join(System.lineSeparator(), changes),
            ACCEPT)
        .isEmpty();
  }

  /** The classes directory or jar of {@code module} on this test's class path. */
  private static Path classesOf(String module) {
    Pattern entry = Pattern.compile(".*/" + Pattern.quote(module) + "/target[^/]*/(classes|noneops-"
        + Pattern.quote(module) + "-[^/]*\\.jar)");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<Path> found = new ArrayList<>();
    for (String element : classPath.split(File.pathSeparator)) {
      Matcher m = entry.matcher(element);
      if (m.matches()) {
        found.add(Path.of(element));
      }
    }
    assertThat(found)
        .as("class path entries of module %s in %s", module, classPath)
        .hasSize(1);
    return found.get(0);
  }
}
