package dev.noneops.acceptance.system.agent;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.testkit.sandbox.SystemdSandbox;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The CLI jar the reactor built ({@code adapter-cli/target/noneops.jar}), run as separate JVMs
 * inside a sandbox (its namespaces and root, so it finds the sandbox's system bus and files at
 * their usual paths), as an operator runs {@code noneops} on a node. The jar is copied to
 * {@value #JAR_IN_SANDBOX}, on the sandbox's disk when it has one.
 */
final class SandboxCli {
  static final String JAR_IN_SANDBOX = "/var/lib/noneops-system-test/noneops.jar";
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final SystemdSandbox sandbox;
  private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

  private SandboxCli(SystemdSandbox sandbox) {
    this.sandbox = sandbox;
  }

  /** The reactor's CLI jar, which the system tests of this module need. */
  static Path builtJar() {
    Path jar =
        Path.of("..", "adapter-cli", "target", "noneops.jar").toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the CLI jar " + jar + " is missing: the reactor builds it before this module");
    }
    return jar;
  }

  /** The CLI in {@code sandbox}, its jar copied in first. */
  static SandboxCli copiedInto(SystemdSandbox sandbox, Path jar) throws IOException {
    Path copy = sandbox.path(JAR_IN_SANDBOX);
    Files.createDirectories(Objects.requireNonNull(copy.getParent(), "the jar's directory"));
    Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    return new SandboxCli(sandbox);
  }

  /** The CLI in {@code sandbox}, whose disk holds the jar a previous boot copied there. */
  static SandboxCli alreadyIn(SystemdSandbox sandbox) {
    if (!Files.isRegularFile(sandbox.path(JAR_IN_SANDBOX))) {
      throw new IllegalStateException(sandbox + " has no " + JAR_IN_SANDBOX);
    }
    return new SandboxCli(sandbox);
  }

  /** One finished run. */
  record Run(List<String> args, int exitCode, String out, String err) {
    Run orThrow() {
      if (exitCode != 0) {
        throw new IllegalStateException(this.toString());
      }
      return this;
    }

    @Override
    public String toString() {
      return "noneops " + String.join(" ", args) + " exited " + exitCode + "\nstdout:\n" + out
          + "\nstderr:\n" + err;
    }
  }

  /** Runs {@code noneops args} to its end. */
  Run run(String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile("noneops-cli-", ".out");
    Path err = Files.createTempFile("noneops-cli-", ".err");
    try {
      Process p = new ProcessBuilder(command(args))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            "noneops " + String.join(" ", args) + " did not end within " + TIMEOUT);
      }
      return new Run(List.of(args), p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Starts {@code noneops args} and reads its stderr line by line until {@code stop} accepts a
   * line (then calls {@code atLine} while the process still runs and goes on reading until the
   * stream ends) or the stream ends.
   *
   * @return every stderr line read, the accepted one included
   */
  List<String> runWatchingStderr(Predicate<String> stop, Runnable atLine, String... args)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command(args))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader err =
        new BufferedReader(new InputStreamReader(p.getErrorStream(), UTF_8))) {
      boolean fired = false;
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        lines.add(line);
        if (!fired && stop.test(line)) {
          fired = true;
          atLine.run();
        }
      }
    } finally {
      if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    return lines;
  }

  private List<String> command(String... args) {
    List<String> command = new ArrayList<>(sandbox.inside(List.of(
        "/usr/bin/env",
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        java.toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Xshare:auto",
        "-Xlog:disable",
        "-Xlog:all=warning:stderr",
        "--add-opens",
        "java.base/java.io=ALL-UNNAMED",
        "--add-opens",
        "java.base/sun.nio.ch=ALL-UNNAMED",
        "-jar",
        JAR_IN_SANDBOX)));
    command.addAll(List.of(args));
    return command;
  }
}
