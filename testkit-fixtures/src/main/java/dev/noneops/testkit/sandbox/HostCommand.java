package dev.noneops.testkit.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a host command with a timeout, capturing at most {@value #MAX_CAPTURE_BYTES} bytes of each
 * output stream (through temporary files, so a chatty command can never block on a full pipe).
 */
final class HostCommand {
  static final int MAX_CAPTURE_BYTES = 1 << 20;
  private static final Map<String, String> ENVIRONMENT = Map.of(
      "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "LANG", "C.UTF-8",
      "SYSTEMD_PAGER", "",
      "SYSTEMD_COLORS", "0");

  private HostCommand() {}

  static CommandResult run(List<String> command, Duration timeout) {
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("noneops-cmd-", ".out");
      err = Files.createTempFile("noneops-cmd-", ".err");
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      builder.environment().clear();
      builder.environment().putAll(ENVIRONMENT);
      Process process = builder.start();
      boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
      return new CommandResult(
          command, finished ? process.exitValue() : -1, head(out), head(err), !finished);
    } catch (IOException e) {
      return new CommandResult(command, 127, "", "cannot run: " + e.getMessage(), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new CommandResult(command, -1, "", "interrupted", true);
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  private static String head(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_CAPTURE_BYTES), StandardCharsets.UTF_8);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a leftover empty temp file is harmless
      }
    }
  }
}
