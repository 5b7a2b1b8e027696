package dev.noneops.acceptance.system.agent;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What a fleet sees of the agent in a sandbox: Debian's {@code prometheus-node-exporter} (taken
 * with {@code apt-get download}, never installed) run as a unit of the sandbox with its textfile
 * collector on the agent's directory and only that collector, scraped over HTTP (the sandbox
 * shares the host's network), Debian's {@code promtool check metrics} on what it serves, and the
 * agent's journal read back as JSON.
 */
final class FleetView {
  static final String EXPORTER_UNIT = "noneops-test-node-exporter.service";
  static final String TEXTFILES = "/var/lib/prometheus/node-exporter";
  static final int EXPORTER_PORT = 19187;
  static final int AGENT_PORT = 19188;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path exporter;
  private final Path promtool;

  private FleetView(Path exporter, Path promtool) {
    this.exporter = exporter;
    this.promtool = promtool;
  }

  /** Takes node_exporter and promtool from Debian's packages (cached across runs). */
  static FleetView fromDebian() throws IOException, InterruptedException {
    DebianPackages debian = DebianPackages.inUserCache();
    Path exporter = debian
        .extracted("prometheus-node-exporter", "")
        .resolve("usr/bin/prometheus-node-exporter");
    Path promtool = debian.extracted("prometheus", "").resolve("usr/bin/promtool");
    return new FleetView(exporter, promtool);
  }

  /**
   * Runs node_exporter in {@code sandbox} as {@value #EXPORTER_UNIT}, its textfile collector on
   * {@value #TEXTFILES} (made root's, 0755, as Debian's package makes it).
   */
  void startExporter(SystemdSandbox sandbox) throws IOException {
    Path dir = sandbox.path(TEXTFILES);
    Files.createDirectories(dir);
    sandbox.exec("chown", "root:root", TEXTFILES).orThrow();
    sandbox.exec("chmod", "0755", TEXTFILES).orThrow();
    Path unit = sandbox.path("/etc/systemd/system/" + EXPORTER_UNIT);
    Files.writeString(
        unit,
        "[Unit]\nDescription=node_exporter for the agent's system test\n\n[Service]\nExecStart="
            + exporter + " --web.listen-address=127.0.0.1:" + EXPORTER_PORT
            + " --collector.disable-defaults --collector.textfile"
            + " --collector.textfile.directory=" + TEXTFILES + "\n",
        UTF_8);
    sandbox.systemctl("daemon-reload").orThrow();
    sandbox.systemctl("start", EXPORTER_UNIT).orThrow();
  }

  /** Stops node_exporter and removes its unit. */
  void stopExporter(SystemdSandbox sandbox) throws IOException {
    sandbox.systemctl("stop", EXPORTER_UNIT);
    Files.deleteIfExists(sandbox.path("/etc/systemd/system/" + EXPORTER_UNIT));
    sandbox.systemctl("daemon-reload");
  }

  /** What node_exporter serves now; empty when it does not answer. */
  static String scrape(int port) {
    try {
      HttpResponse<String> r = HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(1))
          .build()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? r.body() : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** Scrapes node_exporter until what it serves satisfies {@code until}, and returns it. */
  static String awaitScrape(
      SystemdSandbox sandbox, Predicate<String> until, String what, Duration timeout)
      throws InterruptedException {
    return awaitScrape(sandbox, EXPORTER_PORT, until, what, timeout);
  }

  /** Scrapes {@code port} until what it serves satisfies {@code until}, and returns it. */
  static String awaitScrape(
      SystemdSandbox sandbox, int port, Predicate<String> until, String what, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      last = scrape(port);
      if (until.test(last)) {
        return last;
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "port " + port + " did not come to serve " + what + " within " + timeout
            + "; it served the agent's series:\n" + noneops(last) + "\nthe agent's journal:\n"
            + sandbox.journal(HostPaths.AGENT_UNIT));
  }

  /** The {@code noneops_} families of a scrape: their HELP, TYPE and samples. */
  static String noneops(String scraped) {
    return scraped
            .lines()
            .filter(l -> l.startsWith("noneops_")
                || l.startsWith("# HELP noneops_")
                || l.startsWith("# TYPE noneops_"))
            .collect(Collectors.joining("\n"))
        + "\n";
  }

  /** {@code promtool check metrics} of {@code text}: its exit status and what it said. */
  ExecResultOnHost promtoolCheck(String text) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(promtool.toString(), "check", "metrics")
        .redirectErrorStream(true)
        .start();
    p.getOutputStream().write(text.getBytes(UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("promtool check metrics did not finish within 30 s");
    }
    return new ExecResultOnHost(p.exitValue(), out);
  }

  /** A command's exit status and output. */
  record ExecResultOnHost(int exitCode, String output) {}

  /** The agent's journal entries whose {@code field} is {@code value}, as JSON objects. */
  static List<JsonNode> agentJournal(SystemdSandbox sandbox, String field, String value)
      throws IOException {
    ExecResult r = sandbox.exec(
        "journalctl", "--no-pager", "-o", "json", "-u", HostPaths.AGENT_UNIT, field + "=" + value);
    List<JsonNode> entries = new ArrayList<>();
    for (String line : r.stdout().lines().toList()) {
      if (!line.isBlank()) {
        entries.add(JSON.readTree(line));
      }
    }
    return entries;
  }

  /**
   * Has the agent's unit run its daemon with {@code args} more, through a drop-in (the unit
   * bootstrap wrote stays as it is), and restarts it.
   */
  static void agentWith(SystemdSandbox sandbox, String configFile, String... args)
      throws IOException {
    Path dropIn = sandbox.path("/etc/systemd/system/" + HostPaths.AGENT_UNIT + ".d/50-test.conf");
    Files.createDirectories(dropIn.getParent());
    Files.writeString(
        dropIn,
        "[Service]\nExecStart=\nExecStart=" + HostPaths.realHost().agentLauncher() + " daemon"
            + " --config " + configFile + " " + String.join(" ", args) + "\n",
        UTF_8);
    sandbox.systemctl("daemon-reload").orThrow();
    sandbox.systemctl("restart", HostPaths.AGENT_UNIT).orThrow();
  }

  /** Removes the drop-in of {@link #agentWith}. */
  static void agentAsInstalled(SystemdSandbox sandbox) throws IOException {
    Path dropIn = sandbox.path("/etc/systemd/system/" + HostPaths.AGENT_UNIT + ".d/50-test.conf");
    Files.deleteIfExists(dropIn);
    Files.deleteIfExists(dropIn.getParent());
    sandbox.systemctl("daemon-reload").orThrow();
  }
}
