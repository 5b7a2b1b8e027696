package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.Calls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bootstrapping again with another agent build keeps the build that is current and the one before
 * it in {@code /usr/local/lib/noneops} and removes the older builds it installed (nothing else
 * there); a bootstrap that changes the build or the configuration file the daemon follows
 * restarts the daemon, so what runs is what was installed.
 */
class AgentBuildsOnAHostTest {
  private static final Path HOME = Path.of("/usr/local/lib/noneops");
  private static final AgentConfig CONFIG = SimNode.config();

  private final SimNode lab = new SimNode();

  @BeforeEach
  void aNodeBootstrappedWithItsAgent() {
    lab.bootstrapWithAgent(CONFIG);
  }

  private void bootstrapWith(String build, Path configFile) throws IOException {
    if (!lab.exists(configFile)) {
      lab.host.fs().seedFile(configFile, CONFIG.toJson(), 0600);
    }
    AgentSetup first = SimNode.agent();
    byte[] jar = build.equals(first.buildId())
        ? SimNode.agentJar()
        : ("agent jar of " + build + "\n").getBytes(StandardCharsets.UTF_8);
    AgentSetup agent = new AgentSetup(
        build, jar::clone, first.java(), first.jvmOptions(), configFile, first.manPages());
    lab.node(Params.builder(lab.host.ports()).config(CONFIG).agent(agent)).bootstrap(true);
  }

  private List<String> agentRestarts() {
    return lab.host.journal().calls(Calls.to("systemd.restart")).stream()
        .map(c -> c.args().get(0))
        .filter(HostPaths.AGENT_UNIT::equals)
        .toList();
  }

  @Test
  void theCurrentAndThePreviousBuildAreKeptAndOlderOnesRemoved() throws IOException {
    lab.host.fs().seedFile(HOME.resolve("operators-notes/README"), "mine\n", 0644);

    bootstrapWith("0.2.0-bbbbbbbbbbbb", SimNode.AGENT_CONFIG_FILE);
    bootstrapWith("0.3.0-cccccccccccc", SimNode.AGENT_CONFIG_FILE);

    assertThat(lab.host.ports().files().list(HOME))
        .as("the older build goes; what the node did not install stays")
        .doesNotContain(SimNode.AGENT_BUILD)
        .contains("0.2.0-bbbbbbbbbbbb", "0.3.0-cccccccccccc", "current", "operators-notes");
    assertThat(lab.host.fs().readLink(HOME.resolve("current"))).isEqualTo("0.3.0-cccccccccccc");
    assertThat(lab.host.fs().read(HOME.resolve("0.2.0-bbbbbbbbbbbb/lib/noneops.jar")))
        .asString()
        .isEqualTo("agent jar of 0.2.0-bbbbbbbbbbbb\n");
  }

  @Test
  void anotherBuildRestartsTheDaemon() throws IOException {
    lab.host.journal().clear();

    bootstrapWith("0.2.0-bbbbbbbbbbbb", SimNode.AGENT_CONFIG_FILE);

    assertThat(agentRestarts()).containsExactly(HostPaths.AGENT_UNIT);
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive()).isTrue();
  }

  @Test
  void anotherConfigurationFileRestartsTheDaemon() throws IOException {
    lab.host.journal().clear();

    bootstrapWith(SimNode.AGENT_BUILD, Path.of("/etc/noneops/other.json"));

    assertThat(agentRestarts()).containsExactly(HostPaths.AGENT_UNIT);
  }

  @Test
  void theSameBuildAndFileLeaveTheDaemonRunningAsItIs() throws IOException {
    lab.host.journal().clear();

    bootstrapWith(SimNode.AGENT_BUILD, SimNode.AGENT_CONFIG_FILE);

    assertThat(agentRestarts()).isEmpty();
  }
}
