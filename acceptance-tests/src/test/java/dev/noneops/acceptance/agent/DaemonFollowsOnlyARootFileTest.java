package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * The daemon checks its configuration file at every read: once a user or group other than root
 * can write it or a directory above it, the file is not applied, the node keeps the configuration
 * applied last, and its state says why; when only root can write it again, it is followed again.
 */
class DaemonFollowsOnlyARootFileTest {
  private static final AgentConfig BLUE = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig GREEN = SimNode.config("1.31.4", "", "green");
  private static final Path FILE = SimNode.AGENT_CONFIG_FILE;
  private static final int ALICE = 1000;

  private SimNode lab;
  private NodeDaemon daemon;

  @BeforeEach
  void aNodeWhoseDaemonWatchesItsFile() {
    lab = new SimNode();
    lab.bootstrapWithAgent(BLUE);
    daemon = new NodeDaemon(
        lab.host.ports(),
        lab.layout,
        lab.paths,
        (config, previous) -> lab.node(config.orElseGet(previous::orElseThrow), previous),
        new NodeDaemon.Options(FILE, Duration.ofSeconds(5), "amd64"),
        NodeDaemon.Listener.NONE,
        NOPLogger.NOP_LOGGER);
    daemon.start();
  }

  private AgentState state() {
    return AgentState.read(lab.host.ports().files(), lab.paths);
  }

  @Test
  void aFileAnotherUserOwnsIsNotAppliedAndTheNodeKeepsItsConfiguration() throws IOException {
    lab.writeDesired(GREEN);
    lab.host.fs().seedOwner(FILE, ALICE, ALICE);

    daemon.tick();
    daemon.tick();

    assertThat(lab.applied()).contains(BLUE);
    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo("UNTRUSTED");
      assertThat(e.detail()).contains(FILE.toString(), "owner 1000", "mode 0644");
    });

    lab.host.fs().seedOwner(FILE, 0, 0);
    daemon.tick();

    assertThat(lab.applied()).as("root's alone again, it is followed").contains(GREEN);
  }

  @Test
  void aDirectoryAboveItThatOthersCanWriteStopsItBeingFollowed() throws IOException {
    lab.host.fs().seedDirectory(FILE.getParent(), 0777);
    lab.writeDesired(GREEN);

    daemon.tick();

    assertThat(lab.applied()).contains(BLUE);
    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo("UNTRUSTED");
      assertThat(e.detail()).contains(FILE.getParent() + " ", "mode 0777", "others");
    });
  }
}
