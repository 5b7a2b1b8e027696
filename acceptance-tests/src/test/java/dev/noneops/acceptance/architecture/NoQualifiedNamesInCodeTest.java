package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Code names classes by their simple names and imports them; no package is spelled out in it. */
class NoQualifiedNamesInCodeTest {
  @Test
  void noMainSourceOfAnyModuleSpellsOutAClassWithItsPackage() throws IOException {
    Path root = SourceTree.root();
    List<Path> sources = SourceTree.mainSources(root);
    List<String> found = new ArrayList<>();
    for (Path source : sources) {
      for (String hit :
          QualifiedNames.in(Files.readString(root.resolve(source), StandardCharsets.UTF_8))) {
        found.add(source + ":" + hit);
      }
    }
    assertThat(sources).as("main sources scanned").hasSizeGreaterThan(100);
    assertThat(found)
        .as("import these classes instead of naming their packages in code")
        .isEmpty();
  }

  @Test
  void aQualifiedNameInAMethodBodyAFieldOrASignatureIsFound() {
    String source = """
        package dev.noneops.example;

        import java.util.List;

        class Example {
          private final java.util.Map<String, String> names = new java.util.TreeMap<>();

          List<String> sorted(java.util.function.Predicate<String> keep) throws java.io.IOException {
            return dev.noneops.example.other.Helper.sort(names, java.util.Locale.ROOT);
          }
        }
        """;

    assertThat(QualifiedNames.in(source))
        .containsExactly(
            "6: java.util.Map", "6: java.util.TreeMap",
            "8: java.util.function.Predicate", "8: java.io.IOException",
            "9: dev.noneops.example.other.Helper", "9: java.util.Locale");
  }

  @Test
  void importsCommentsStringsAndMemberAccessAreNotQualifiedNames() {
    String source = """
        package dev.noneops.example;

        import java.util.List;
        import static java.util.Objects.requireNonNull;

        /** Uses {@link java.util.List}. */
        class Example {
          // java.util.Map would be a finding in code
          String text = "see java.util.Map";
          String block = \"""
              java.util.Map
              \""";
          char quote = '"';
          int size(List<String> names) {
            return names.stream().map(String::trim).toList().size() + Integer.MAX_VALUE;
          }
        }
        """;

    assertThat(QualifiedNames.in(source)).isEmpty();
  }
}
