package dev.noneops.demo;

import dev.noneops.testkit.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The agent as separate JVMs running {@code noneops.jar} inside the sandbox's namespaces and root
 * (so it finds the sandbox's system bus and file system at their usual paths), killed with SIGKILL
 * when the story needs a crash.
 */
final class SandboxAgent implements Agent {
  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

  /** A directory inside the sandbox that comes first on the agent's PATH (for the demo's tool wrappers). */
  static final String WRAPPER_DIR = "/run/noneops-demo/bin";

  private final SystemdSandbox sandbox;
  private final Path jar;
  private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

  /** Where the agent's jar is copied inside the sandbox (its {@code /run} is the sandbox's own tmpfs). */
  static final String JAR_IN_SANDBOX = "/run/noneops-demo/noneops.jar";

  /**
   * An agent running a copy of {@code jar} inside the sandbox: the sandbox has a {@code /tmp} of
   * its own, so a checkout below the host's {@code /tmp} is not visible in it.
   */
  SandboxAgent(SystemdSandbox sandbox, Path jar) throws IOException {
    this.sandbox = sandbox;
    Path copy = sandbox.path(JAR_IN_SANDBOX);
    Files.createDirectories(
        Objects.requireNonNull(copy.getParent(), "the jar's directory in the sandbox"));
    Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    this.jar = Path.of(JAR_IN_SANDBOX);
  }

  @Override
  public Run run(String... args) throws Exception {
    Process p = start(args);
    if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(
          "noneops " + String.join(" ", args) + " did not finish within " + COMMAND_TIMEOUT);
    }
    return collect(p);
  }

  @Override
  public Run runAndKillAfterTheFlip(String targetVersion, String... args) throws Exception {
    Process p = start(args);
    Path current = sandbox.path("/opt/unbounded/node/current");
    Instant deadline = Instant.now().plus(COMMAND_TIMEOUT);
    while (p.isAlive() && Instant.now().isBefore(deadline)) {
      if (Files.isSymbolicLink(current)
          && Files.readSymbolicLink(current).toString().contains(targetVersion)) {
        ProcessHandle agent = p.toHandle()
            .descendants()
            .filter(h -> h.info().command().orElse("").endsWith("/java"))
            .findFirst()
            .orElseThrow(() ->
                new IllegalStateException("cannot find the agent's JVM below pid " + p.pid()));
        agent.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        Run r = collect(p);
        return new Run(
            r.exitCode(),
            r.out(),
            r.err() + "\n(agent JVM pid " + agent.pid()
                + " killed with SIGKILL right after it flipped current)");
      }
      Thread.sleep(10);
    }
    p.destroyForcibly();
    Run r = collect(p);
    throw new IllegalStateException("the upgrade ended (exit " + r.exitCode()
        + ") before it flipped current to " + targetVersion + ": " + r.err().strip());
  }

  @Override
  public String activeVersion() throws IOException {
    Path current = sandbox.path("/opt/unbounded/node/current");
    return Files.isSymbolicLink(current) ? Files.readSymbolicLink(current).toString() : "(none)";
  }

  private Process start(String... args) throws IOException {
    List<String> cmd = new ArrayList<>(sandbox.inside(List.of(
        java.toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Xlog:disable",
        "-Xlog:all=warning:stderr",
        "--add-opens",
        "java.base/java.io=ALL-UNNAMED",
        "--add-opens",
        "java.base/sun.nio.ch=ALL-UNNAMED",
        "-jar",
        jar.toString())));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("noneops-demo-", ".out");
    Path err = Files.createTempFile("noneops-demo-", ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment()
        .put("PATH", WRAPPER_DIR + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    Process p = pb.start();
    outputs.put(p, new Path[] {out, err});
    return p;
  }

  private final Map<Process, Path[]> outputs = new ConcurrentHashMap<>();

  private Run collect(Process p) throws IOException {
    Path[] files = Optional.ofNullable(outputs.remove(p)).orElseThrow();
    try {
      return new Run(
          p.exitValue(),
          Files.readString(files[0], StandardCharsets.UTF_8),
          Files.readString(files[1], StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(files[0]);
      Files.deleteIfExists(files[1]);
    }
  }
}
