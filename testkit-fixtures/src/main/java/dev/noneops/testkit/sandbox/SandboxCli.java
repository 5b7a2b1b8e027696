package dev.noneops.testkit.sandbox;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * A {@code noneops} CLI jar (the one the reactor builds, {@code adapter-cli/target/noneops.jar}),
 * run as separate JVMs inside a sandbox (its namespaces and root, so it finds the sandbox's system bus and files at
 * their usual paths), as an operator runs {@code noneops} on a node. The jar is copied to
 * {@value #JAR_IN_SANDBOX}, on the sandbox's disk when it has one, so that a sandbox booted
 * again on that disk finds it ({@link #alreadyIn}). {@link #runWatchingStderr} with {@link
 * #progressEvent} acts at a step of an operation's progress stream ({@code --json}), for example
 * to cut the sandbox's power right after an upgrade's flip.
 */
public final class SandboxCli {
  public static final String JAR_IN_SANDBOX = "/var/lib/noneops-sandbox-cli/noneops.jar";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final SystemdSandbox sandbox;
  private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

  private SandboxCli(SystemdSandbox sandbox) {
    this.sandbox = sandbox;
  }

  /** The CLI in {@code sandbox}, its jar copied in first. */
  public static SandboxCli copiedInto(SystemdSandbox sandbox, Path jar) throws IOException {
    Path copy = sandbox.path(JAR_IN_SANDBOX);
    Files.createDirectories(Objects.requireNonNull(copy.getParent(), "the jar's directory"));
    Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    return new SandboxCli(sandbox);
  }

  /** The CLI in {@code sandbox}, whose disk holds the jar a previous boot copied there. */
  public static SandboxCli alreadyIn(SystemdSandbox sandbox) {
    if (!Files.isRegularFile(sandbox.path(JAR_IN_SANDBOX))) {
      throw new IllegalStateException(sandbox + " has no " + JAR_IN_SANDBOX);
    }
    return new SandboxCli(sandbox);
  }

  /** One finished run. */
  public record Run(List<String> args, int exitCode, String out, String err) {
    /** This run, when it exited 0. */
    public Run orThrow() {
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
  public Run run(String... args) throws IOException, InterruptedException {
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
  public List<String> runWatchingStderr(Predicate<String> stop, Runnable atLine, String... args)
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

  /**
   * Accepts the line of an operation's progress stream ({@code noneops <operation> --json} writes
   * one JSON event a line to stderr) that reports {@code kind} ({@code STARTED}, {@code
   * COMPLETED}) for {@code task} (for example {@code upgrade-switch-current}).
   */
  public static Predicate<String> progressEvent(String task, String kind) {
    return line -> {
      if (!line.startsWith("{")) {
        return false;
      }
      try {
        JsonNode event = JSON.readTree(line);
        return event.path("task").asText().equals(task)
            && event.path("kind").asText().equals(kind);
      } catch (IOException notJson) {
        return false;
      }
    };
  }

  private List<String> command(String... args) {
    List<String> command = new ArrayList<>(sandbox.inside(commandInside()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * The command that runs the CLI inside the sandbox (to be run there: in its namespaces and
   * root), the arguments to follow: the JDK of this JVM on the jar at {@value #JAR_IN_SANDBOX},
   * tuned as {@code bin/noneops} tunes it, with the usual {@code PATH}.
   */
  public List<String> commandInside() {
    return List.of(
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
        JAR_IN_SANDBOX);
  }
}
