package dev.noneops.benchmarks.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a host command with a bounded wait, capturing its output; a failure names the command and its stderr. */
final class Shell {
  private Shell() {}

  record Result(int exitCode, String out, String err, long nanos) {}

  static Result run(List<String> command, Duration timeout)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("noneops-bench-", ".out");
    Path err = Files.createTempFile("noneops-bench-", ".err");
    try {
      long start = System.nanoTime();
      Process p = new ProcessBuilder(command)
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        throw new IOException(String.join(" ", command) + " did not finish within " + timeout);
      }
      long nanos = System.nanoTime() - start;
      return new Result(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8),
          nanos);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  static Result check(List<String> command, Duration timeout)
      throws IOException, InterruptedException {
    Result r = run(command, timeout);
    if (r.exitCode() != 0) {
      throw new IOException(
          String.join(" ", command) + " exited " + r.exitCode() + ": " + r.err().strip());
    }
    return r;
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
