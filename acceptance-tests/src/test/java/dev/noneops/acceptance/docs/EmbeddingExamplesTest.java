package dev.noneops.acceptance.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedding examples a new user copies, the README's and those of {@code
 * docs/guides/embedding.md}, compiled against this module's class path and run, as {@link
 * DocExamples} states: they fail with the compiler's diagnostics, at the page's lines, when the
 * docs drift from the API.
 */
class EmbeddingExamplesTest {
  static final String START = "<!-- embedding-example:start -->";
  static final String END = "<!-- embedding-example:end -->";

  @TempDir
  Path work;

  @Test
  void theReadmeExampleCompilesRunsAndBootstrapsARunningNode() throws Exception {
    List<DocExamples.Block> blocks =
        DocExamples.javaBlocks("README.md", read("README.md"), START, END);

    List<DocExamples.Ran> ran = DocExamples.compileAndRun(blocks, work);

    assertThat(blocks).hasSize(1);
    assertThat(ran)
        .singleElement()
        .satisfies(r -> assertThat(r.out())
            .as("the README example's line")
            .containsPattern("(?m)^node \\S+ running: true$"));
  }

  @Test
  void theGuidesExamplesCompileAndRun() throws Exception {
    String page = "docs/guides/embedding.md";
    List<DocExamples.Block> blocks = DocExamples.javaBlocks(page, read(page), null, null);

    List<DocExamples.Ran> ran = DocExamples.compileAndRun(blocks, work);

    assertThat(ran)
        .extracting(DocExamples.Ran::out)
        .allSatisfy(
            out -> assertThat(out).as("what every example printed").doesNotContain("failed at"));
    assertThat(String.join("", ran.stream().map(DocExamples.Ran::out).toList()))
        .containsPattern("(?m)^node \\S+ running: true")
        .contains("upgraded ")
        .contains("reset, complete: true");
  }

  @Test
  void theGuideShowsTheReadmeExampleWithItsImportsSpelledOut() throws Exception {
    String page = "docs/guides/embedding.md";
    List<String> readme =
        code(DocExamples.javaBlocks("README.md", read("README.md"), START, END).get(0));
    List<List<String>> guide = DocExamples.javaBlocks(page, read(page), null, null).stream()
        .map(EmbeddingExamplesTest::code)
        .toList();

    assertThat(guide).as("the guide's examples").contains(readme);
  }

  /** A block's lines after its imports. */
  private static List<String> code(DocExamples.Block block) {
    List<String> lines = block.lines();
    int i = 0;
    while (i < lines.size() && (lines.get(i).isBlank() || lines.get(i).startsWith("import "))) {
      i++;
    }
    return lines.subList(i, lines.size());
  }

  @Test
  void theGuideStatesTheMavenCoordinatesOfEveryArtifactTheExamplesUse() throws Exception {
    String guide = read("docs/guides/embedding.md");
    String version = "0.1.0-SNAPSHOT";
    for (String module : List.of(
        "core",
        "ports",
        "adapter-host-fs",
        "adapter-systemd-dbus",
        "testkit",
        "testkit-fixtures")) {
      String pom = read(module + "/pom.xml");
      String artifactId = "noneops-" + module;
      assertThat(pom)
          .as(module + "/pom.xml")
          .contains("<artifactId>" + artifactId + "</artifactId>");
      assertThat(guide)
          .as("the guide's coordinates of " + module)
          .contains("| `dev.noneops` | `" + artifactId + "` | `" + version + "` |");
    }
    assertThat(read("pom.xml")).contains("<version>" + version + "</version>");
  }

  @Test
  void aBlockThatDoesNotCompileFailsWithTheDiagnosticAtThePagesLine() {
    String page = """
        # p
        %s
        ```java
        import dev.noneops.core.node.Node;

        Node node = new Node();
        System.out.println(node);
        ```
        %s
        """.formatted(START, END);
    List<DocExamples.Block> blocks = DocExamples.javaBlocks("p.md", page, START, END);

    assertThatThrownBy(() -> DocExamples.compileAndRun(blocks, work))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "p.md:6: constructor Node in class dev.noneops.core.node.Node cannot be applied");
  }

  @Test
  void aBlockThatImportsAnInternalPackageFails() {
    String page = """
        ```java
        import dev.noneops.core.node.internal.PhaseContext;
        import dev.noneops.core.node.Node;

        System.out.println("hello");
        ```
        """;
    List<DocExamples.Block> blocks = DocExamples.javaBlocks("p.md", page, null, null);

    assertThatThrownBy(() -> DocExamples.compileAndRun(blocks, work))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("p.md:2: import dev.noneops.core.node.internal.PhaseContext;");
  }

  @Test
  void aSnippetThatPrintsNothingFails() {
    String page = """
        ```java
        int x = 1;
        ```
        """;
    List<DocExamples.Block> blocks = DocExamples.javaBlocks("p.md", page, null, null);

    assertThatThrownBy(() -> DocExamples.compileAndRun(blocks, work))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("p.md:2: the example printed nothing");
  }

  /** A file of the checkout, from the repository root above the working directory. */
  static String read(String relative) throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("ports/pom.xml"))) {
        return Files.readString(dir.resolve(relative), StandardCharsets.UTF_8);
      }
    }
    throw new IllegalStateException("no noneops checkout above " + Path.of("").toAbsolutePath());
  }
}
