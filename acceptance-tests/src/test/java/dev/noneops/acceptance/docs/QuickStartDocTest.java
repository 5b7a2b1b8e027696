package dev.noneops.acceptance.docs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The quick start's configuration as printed: its block, run by bash with the values its
 * {@code cluster} block gives (a CA as {@code kubectl config view --raw} prints it, a server URL
 * and a bootstrap token), writes a file the agent accepts. The whole quick start runs on a real
 * systemd in {@code QuickStartOnRealSystemdSystemTest}.
 */
class QuickStartDocTest {

  @Test
  void theBlocksComeInTheOrderAnOperatorRunsThem() throws Exception {
    assertThat(QuickStartDoc.read().names())
        .containsExactly("install", "cluster", "config", "node");
    assertThat(QuickStartDoc.read().lines("node"))
        .containsExactly(
            "noneops preflight", "noneops plan", "noneops bootstrap", "noneops status");
  }

  @Test
  void theConfigurationBlockWritesAFileTheAgentAccepts() throws Exception {
    Path root = Files.createTempDirectory("quick-start");
    String config = QuickStartDoc.read()
        .block("config")
        .replace("/etc/unbounded/agent", root.resolve("etc/unbounded/agent").toString());
    String script = "CA='" + ConfigJson.CA_BASE64 + "'\n"
        + "SERVER='https://10.0.0.1:6443'\n"
        + "TOKEN='abcdef.0123456789abcdef'\n"
        + config;
    Process bash =
        new ProcessBuilder("bash", "-euc", script).redirectErrorStream(true).start();
    String output = new String(bash.getInputStream().readAllBytes(), UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue()).as(output).isZero();

    Path file = root.resolve("etc/unbounded/agent/config.json");
    AgentConfig parsed = AgentConfigParser.parseAndValidate(Files.readAllBytes(file), "amd64");

    assertThat(parsed.cluster().caCertBase64()).isEqualTo(ConfigJson.CA_BASE64);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(parsed.machineName()).isNotBlank();
  }
}
