package dev.noneops.acceptance.packaging;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The packages module {@code packaging} built before this one, and the commands that read them. */
public final class Packages {
  static final Path TARGET =
      Path.of("..", "packaging", "target").toAbsolutePath().normalize();

  private Packages() {}

  /** The {@code .deb}, empty where the build made none (no {@code dpkg-deb}: not Debian). */
  public static Optional<Path> deb() throws IOException {
    return single("noneops_", "_all.deb");
  }

  /** The tarball, empty where the build made none. */
  public static Optional<Path> tarball() throws IOException {
    return single("noneops-", ".tar.gz");
  }

  private static Optional<Path> single(String prefix, String suffix) throws IOException {
    if (!Files.isDirectory(TARGET)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(TARGET)) {
      List<Path> found = files
          .filter(f -> f.getFileName().toString().startsWith(prefix)
              && f.getFileName().toString().endsWith(suffix))
          .toList();
      if (found.size() > 1) {
        throw new IllegalStateException("more than one package in " + TARGET + ": " + found);
      }
      return found.stream().findFirst();
    }
  }

  /** Whether {@code command} is on this machine's PATH. */
  public static boolean onPath(String command) {
    return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
  }

  /** One finished command: its exit code and its stdout and stderr together. */
  public record Output(int exitCode, String text) {
    /** This output, when the command exited 0. */
    public Output orThrow() {
      if (exitCode != 0) {
        throw new IllegalStateException("exited " + exitCode + ": " + text);
      }
      return this;
    }
  }

  /** Runs {@code command} to its end (at most two minutes). */
  public static Output run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " did not end in 2 minutes");
    }
    return new Output(p.exitValue(), new String(out, UTF_8));
  }
}
