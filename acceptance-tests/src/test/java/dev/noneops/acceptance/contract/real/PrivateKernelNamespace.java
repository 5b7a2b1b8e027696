package dev.noneops.acceptance.contract.real;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network and mount namespace of the test's own, held by a sleeping process: its links and
 * {@code net.*} sysctls are its own (a fresh loopback, nothing of the machine's), and every
 * directory {@code sysctl --system} reads presets from is an empty tmpfs in it, so applying
 * presets there sets only what the test wrote. Commands run inside with {@code nsenter}; closing
 * it kills the process, and the namespace goes with everything in it.
 */
final class PrivateKernelNamespace implements AutoCloseable {
  /** Where procps' {@code sysctl --system} looks for presets, {@code /etc/sysctl.conf} aside. */
  private static final List<String> PRESET_DIRS = List.of(
      "/etc/sysctl.d",
      "/run/sysctl.d",
      "/usr/local/lib/sysctl.d",
      "/usr/lib/sysctl.d",
      "/lib/sysctl.d");

  private final Process holder;

  private PrivateKernelNamespace(Process holder) {
    this.holder = holder;
  }

  /** Why no such namespace can be made here (not root, no {@code unshare}); empty when it can. */
  static String whyNot() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "a network namespace needs root";
    }
    for (String tool :
        List.of("/usr/bin/unshare", "/usr/bin/nsenter", "/usr/sbin/ip", "/usr/sbin/sysctl")) {
      if (!Files.isExecutable(Path.of(tool))) {
        return tool + " is missing";
      }
    }
    return "";
  }

  static PrivateKernelNamespace create() throws IOException {
    StringBuilder script = new StringBuilder("set -e\n");
    for (String dir : PRESET_DIRS) {
      script
          .append("if [ -d ")
          .append(dir)
          .append(" ] && [ ! -L ")
          .append(dir)
          .append(" ]; then mount -t tmpfs tmpfs ")
          .append(dir)
          .append("; fi\n");
    }
    script
        .append("mount -t tmpfs tmpfs /mnt\n: > /mnt/sysctl.conf\n")
        .append(
            "if [ -e /etc/sysctl.conf ]; then mount --bind /mnt/sysctl.conf /etc/sysctl.conf; fi\n")
        .append("echo ready\nexec sleep infinity\n");
    Process p = new ProcessBuilder(
            "unshare",
            "--net",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script.toString())
        .redirectErrorStream(true)
        .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (!"ready".equals(line)) {
      p.destroyForcibly();
      throw new IOException("cannot make a private network and mount namespace: " + line);
    }
    return new PrivateKernelNamespace(p);
  }

  /** Runs commands inside the namespace. */
  CommandRunner commands(CommandRunner host) {
    return command -> {
      List<String> argv = new ArrayList<>(
          List.of("nsenter", "--target", Long.toString(holder.pid()), "--net", "--mount", "--"));
      argv.addAll(command.argv());
      return host.run(
          new Command(argv, command.env(), command.timeout(), command.maxOutputBytes()));
    };
  }

  /**
   * Starts {@code argv} inside, in the background, and waits until it printed its first line
   * ({@code ready}); the caller destroys it.
   */
  Process spawn(String... argv) throws IOException {
    List<String> line = new ArrayList<>(
        List.of("nsenter", "--target", Long.toString(holder.pid()), "--net", "--mount", "--"));
    line.addAll(List.of(argv));
    Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
    String first = new BufferedReader(
            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
        .readLine();
    if (!"ready".equals(first)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", argv) + " did not start: " + first);
    }
    return p;
  }

  /** A path as the namespace's processes see it. */
  Path inside(String absolute) {
    return Path.of("/proc", Long.toString(holder.pid()), "root", absolute.substring(1));
  }

  /** Runs {@code argv} inside and requires it to succeed. */
  void require(CommandRunner host, String... argv) throws IOException {
    CommandResult r = commands(host).run(Command.of(Duration.ofSeconds(10), argv));
    if (!r.succeeded()) {
      throw new IOException(
          String.join(" ", argv) + " exited " + r.exitCode() + ": " + r.stderr().strip());
    }
  }

  @Override
  public void close() throws InterruptedException {
    holder.destroyForcibly();
    holder.waitFor(10, TimeUnit.SECONDS);
  }
}
