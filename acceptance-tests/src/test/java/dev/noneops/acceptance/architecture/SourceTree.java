package dev.noneops.acceptance.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The checkout the tests run in: its root and the main sources of its modules. */
final class SourceTree {
  private SourceTree() {}

  /** The repository root: the nearest directory above the working directory holding {@code ports/pom.xml}. */
  static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("pom.xml"))
          && Files.isRegularFile(dir.resolve("ports/pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no noneops checkout above " + Path.of("").toAbsolutePath());
  }

  /** Every {@code .java} file below a module's {@code src/main/java}, as paths relative to the root. */
  static List<Path> mainSources(Path root) {
    try (Stream<Path> modules = Files.list(root)) {
      return modules
          .map(module -> module.resolve("src/main/java"))
          .filter(Files::isDirectory)
          .flatMap(SourceTree::javaFiles)
          .map(root::relativize)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<Path> javaFiles(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
