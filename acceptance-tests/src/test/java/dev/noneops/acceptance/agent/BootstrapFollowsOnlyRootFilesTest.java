package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A bootstrap that installs the agent makes a root daemon follow its configuration file for good
 * and a launcher run its java at every boot: it refuses either when a user or group other than
 * root can write it or any directory above it (links followed to where they lead), naming the
 * path, its owner and its mode, before it writes anything.
 */
class BootstrapFollowsOnlyRootFilesTest {
  private static final AgentConfig CONFIG = SimNode.config("1.31.4", "", "blue");
  private static final Path JAVA = Path.of("/usr/lib/jvm/java-17/bin/java");
  private static final int ALICE = 1000;

  private final SimNode lab = new SimNode();

  private Node watching(Path configFile, Path java) throws IOException {
    lab.publish(CONFIG);
    lab.installAgentLauncher();
    if (!lab.exists(configFile)) {
      lab.host.fs().seedFile(configFile, CONFIG.toJson(), 0600);
    }
    AgentSetup agent =
        new AgentSetup(SimNode.AGENT_BUILD, SimNode::agentJar, java, List.of(), configFile);
    return lab.node(Params.builder(lab.host.ports()).config(CONFIG).agent(agent));
  }

  private void refusedChangingNothing(Node node, String... named) {
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(() -> node.bootstrap(true))
        .isInstanceOf(NoneopsException.class)
        .message()
        .doesNotContain("\n")
        .contains(named);
    assertThat(lab.host.snapshot().diff(before)).isEmpty();
  }

  @Test
  void aConfigurationFileAnotherUserOwnsIsRefused() throws IOException {
    Path file = Path.of("/home/alice/node.json");
    lab.host.fs().seedFile(file, CONFIG.toJson(), 0600);
    lab.host.fs().seedOwner(file, ALICE, ALICE);

    refusedChangingNothing(watching(file, JAVA), file.toString(), "owner 1000", "mode 0600");
  }

  @Test
  void aDirectoryAboveTheFileThatItsGroupCanWriteIsRefused() throws IOException {
    Path file = Path.of("/srv/shared/node.json");
    lab.host.fs().seedFile(file, CONFIG.toJson(), 0600);
    lab.host.fs().seedDirectory(file.getParent(), 0775);
    lab.host.fs().seedOwner(file.getParent(), 0, 100);

    refusedChangingNothing(
        watching(file, JAVA), "/srv/shared ", "owner 0", "mode 0775", "its group");
  }

  @Test
  void aLinkIsJudgedByWhereItLeads() throws IOException {
    Path real = Path.of("/home/alice/node.json");
    lab.host.fs().seedFile(real, CONFIG.toJson(), 0600);
    lab.host.fs().seedOwner(real.getParent(), ALICE, ALICE);
    Path link = Path.of("/etc/noneops/config.json");
    lab.host.fs().seedDirectory(link.getParent(), 0755);
    lab.host.fs().seedSymlink(link, real.toString());

    refusedChangingNothing(watching(link, JAVA), link.toString(), "/home/alice ", "owner 1000");
  }

  @Test
  void theLaunchersJavaInADirectoryAUserOwnsIsRefused() throws IOException {
    Path java = Path.of("/opt/alices-jdk/bin/java");
    lab.host.installExecutable(java, "#!/bin/sh\n");
    lab.host.fs().seedOwner(Path.of("/opt/alices-jdk"), ALICE, ALICE);

    refusedChangingNothing(
        watching(SimNode.AGENT_CONFIG_FILE, java),
        java.toString(),
        "/opt/alices-jdk ",
        "owner 1000",
        "mode 0755");
  }

  @Test
  void aRootFileInAStickyDirectoryOnlyRootOwnsIsFollowed() throws IOException {
    lab.host.fs().seedDirectory(Path.of("/tmp"), 01777);
    Path file = Path.of("/tmp/node.json");

    watching(file, JAVA).bootstrap(true);

    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aFileAnotherUserPutInAStickyDirectoryIsRefused() throws IOException {
    lab.host.fs().seedDirectory(Path.of("/tmp"), 01777);
    Path file = Path.of("/tmp/node.json");
    lab.host.fs().seedFile(file, CONFIG.toJson(), 0600);
    lab.host.fs().seedOwner(file, ALICE, ALICE);

    refusedChangingNothing(watching(file, JAVA), file.toString(), "owner 1000");
  }
}
