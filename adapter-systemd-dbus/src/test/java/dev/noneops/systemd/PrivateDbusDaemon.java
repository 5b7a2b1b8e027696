package dev.noneops.systemd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's {@code dbus-daemon} on a private unix socket in a temporary directory, with a policy
 * that allows everything except the {@code <deny>} rules a test adds (which the daemon enforces
 * with real {@code org.freedesktop.DBus.Error.AccessDenied} replies).
 */
final class PrivateDbusDaemon implements AutoCloseable {
  static final Path DBUS_DAEMON = Path.of("/usr/bin/dbus-daemon");

  private final Process process;
  private final String address;

  private PrivateDbusDaemon(Process process, String address) {
    this.process = process;
    this.address = address;
  }

  /** Starts a daemon in {@code dir}; skips the test when Debian's dbus-daemon is not installed. */
  static PrivateDbusDaemon start(Path dir, List<String> denyRules)
      throws IOException, InterruptedException {
    Assumptions.assumeTrue(
        Files.isExecutable(DBUS_DAEMON),
        "needs Debian's dbus-daemon (package dbus-daemon) at " + DBUS_DAEMON);
    Path socket = dir.resolve("system_bus_socket");
    Path config = dir.resolve("bus.conf");
    StringBuilder denies = new StringBuilder();
    denyRules.forEach(rule -> denies.append("    ").append(rule).append('\n'));
    Files.writeString(config, """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <listen>unix:path=%s</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
          </policy>
          <policy context="mandatory">
        %s  </policy>
        </busconfig>
        """.formatted(socket, denies));
    Process process = new ProcessBuilder(
            DBUS_DAEMON.toString(),
            "--config-file=" + config,
            "--nofork",
            "--nopidfile",
            "--nosyslog",
            "--print-address=1")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader stdout =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
      try {
        return stdout.readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String printed = firstLine.get(10, TimeUnit.SECONDS);
      if (printed == null) {
        throw new IllegalStateException("dbus-daemon exited before printing its address");
      }
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException("dbus-daemon did not start on " + socket, e);
    }
    return new PrivateDbusDaemon(process, "unix:path=" + socket);
  }

  String address() {
    return address;
  }

  /** Kills the daemon abruptly, as a crashed bus would go away. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
