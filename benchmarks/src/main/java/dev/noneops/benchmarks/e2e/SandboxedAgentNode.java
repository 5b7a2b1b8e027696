package dev.noneops.benchmarks.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A node in a sandboxed systemd installed the way an operator installs it: the CLI jar copied
 * into the sandbox and run there as a separate JVM ({@code bootstrap}, which installs the agent
 * and starts {@code noneops-agent.service}), and afterwards the installed {@code noneops} command.
 */
final class SandboxedAgentNode {
  static final String CONFIG = "/etc/unbounded/agent/config.json";
  static final String JAR_IN_SANDBOX = "/run/noneops-bench/noneops.jar";
  static final String PATH_INSIDE = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

  private final SystemdSandbox sandbox;
  private final HostPaths paths = HostPaths.realHost();

  SandboxedAgentNode(SystemdSandbox sandbox) {
    this.sandbox = sandbox;
  }

  /**
   * Bootstraps the node from {@code jar} with {@code json} as its configuration file; returns the
   * bootstrap's output.
   */
  String bootstrap(Path jar, String json) throws Exception {
    Path copy = sandbox.path(JAR_IN_SANDBOX);
    Files.createDirectories(Objects.requireNonNull(copy.getParent(), "the jar's directory"));
    Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
    writeConfig(CONFIG, json);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Shell.Result r = inside(
        java.toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "--add-opens",
        "java.base/java.io=ALL-UNNAMED",
        "--add-opens",
        "java.base/sun.nio.ch=ALL-UNNAMED",
        "-jar",
        JAR_IN_SANDBOX,
        "bootstrap",
        "--config",
        CONFIG,
        "--kubelet-timeout",
        "60s",
        "--no-kernel-modules");
    if (r.exitCode() != 0) {
      throw new IllegalStateException(
          "bootstrap exited " + r.exitCode() + ": " + r.err().strip() + "\n" + journals());
    }
    return r.out().strip();
  }

  /**
   * Removes the node with the installed {@code noneops reset} (a failure is reported, not thrown,
   * so that it does not hide the row's own error) and LocalDNS's interface {@code dnsInterface}
   * from the host network namespace the sandbox shares.
   */
  void reset(String dnsInterface) throws Exception {
    Shell.Result r = noneops("reset", "--yes");
    if (r.exitCode() != 0) {
      System.err.println("noneops reset exited " + r.exitCode() + ": " + r.err().strip());
    }
    Shell.run(List.of("ip", "link", "delete", "dev", dnsInterface), Duration.ofSeconds(10));
  }

  /** The journals of the stack's units, for a failure's message. */
  String journals() {
    StringBuilder out = new StringBuilder();
    for (String unit : HostPaths.STACK_UNITS) {
      out.append("journal of ").append(unit).append(":\n").append(sandbox.journal(unit));
    }
    return out.toString();
  }

  /** Runs the installed {@code noneops} command inside the sandbox, timed. */
  Shell.Result noneops(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(paths.agentCommand().toString()));
    command.addAll(List.of(args));
    return inside(command.toArray(String[]::new));
  }

  /** Runs {@code command} inside the sandbox with the usual {@code PATH}, timed. */
  Shell.Result inside(String... command) throws Exception {
    List<String> full = new ArrayList<>(List.of("env", "PATH=" + PATH_INSIDE));
    full.addAll(List.of(command));
    return Shell.run(sandbox.inside(full), COMMAND_TIMEOUT);
  }

  /** Replaces {@code file} (a path inside the sandbox) with {@code json} in one rename, as an editor or a configuration tool does. */
  void writeConfig(String file, String json) throws IOException {
    Path target = sandbox.path(file);
    Path dir = Objects.requireNonNull(target.getParent(), "the configuration's directory");
    Files.createDirectories(dir);
    Path tmp = dir.resolve("." + target.getFileName() + ".tmp");
    Files.writeString(tmp, json, UTF_8);
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The applied configuration the node recorded, empty when there is none. */
  String applied() throws IOException {
    Path file = sandbox.path(paths.appliedConfig().toString());
    return Files.isRegularFile(file) ? Files.readString(file, UTF_8) : "";
  }

  /** The installed agent launcher's text ({@code /usr/local/lib/noneops/current/bin/noneops}). */
  String launcher() throws IOException {
    return Files.readString(sandbox.path(paths.agentLauncher().toString()), UTF_8);
  }

  /**
   * On a kernel without the dummy link type, installs inside the sandbox only (its overlay is
   * discarded) an {@code ip} first on every {@code PATH} there, systemd's units included, that
   * makes an {@code ifb} link where a dummy is asked for and calls it a dummy in JSON link lists
   * (as the demo does); returns what it did.
   */
  String provideDummyLinks() throws Exception {
    Shell.Result probe =
        Shell.run(List.of("ip", "link", "add", "nobench-probe0", "type", "dummy"), COMMAND_TIMEOUT);
    if (probe.exitCode() == 0) {
      Shell.run(List.of("ip", "link", "delete", "nobench-probe0"), COMMAND_TIMEOUT);
      return "the kernel has dummy links";
    }
    String realIp = Files.isExecutable(Path.of("/usr/bin/ip")) ? "/usr/bin/ip" : "/sbin/ip";
    Path wrapper = sandbox.path("/usr/local/sbin/ip");
    Files.createDirectories(Objects.requireNonNull(wrapper.getParent(), "/usr/local/sbin"));
    Files.writeString(wrapper, DummyLinkStandIn.shellWrapper(realIp), UTF_8);
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    return "the kernel has no dummy link type: inside the sandbox, `ip` makes LocalDNS's link an ifb link";
  }
}
