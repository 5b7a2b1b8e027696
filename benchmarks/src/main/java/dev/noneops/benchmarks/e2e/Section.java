package dev.noneops.benchmarks.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** A Markdown section of docs/benchmarks.md that one driver writes to its own file. */
final class Section {
  private final StringBuilder text = new StringBuilder();

  Section heading(String title) {
    text.append("## ").append(title).append("\n\n");
    return this;
  }

  Section line(String line) {
    text.append(line).append('\n');
    return this;
  }

  Section paragraph(String paragraph) {
    text.append(paragraph).append("\n\n");
    return this;
  }

  /** Writes the section to {@code file} (replacing it) and echoes it on stdout. */
  void writeTo(Path file) throws IOException {
    Files.createDirectories(
        Objects.requireNonNull(file.toAbsolutePath().getParent(), "the results directory"));
    Files.writeString(file, text.toString() + "\n", StandardCharsets.UTF_8);
    System.out.print(text);
    System.out.flush();
  }
}
