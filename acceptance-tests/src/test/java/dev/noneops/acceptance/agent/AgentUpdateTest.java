package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.AgentUpdate;
import dev.noneops.core.node.NodeAbsentException;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.PortCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code Node.updateAgent()}, which a package upgrade runs on a node: another build becomes the
 * node's agent and its daemon restarts on it, while the stack, its version and its configuration
 * stay exactly as they were.
 */
class AgentUpdateTest {
  private static final Path HOME = Path.of("/usr/local/lib/noneops");
  private static final String NEWER = "0.2.0-newerbuild";

  private final SimNode lab = new SimNode();

  @Test
  void anotherBuildBecomesTheAgentAndOnlyTheDaemonRestarts() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());
    FileTreeSnapshot layout = lab.host.snapshot(Path.of("/opt/unbounded"));
    FileTreeSnapshot etc = lab.host.snapshot(Path.of("/etc/unbounded"));
    int before = lab.host.journal().calls().size();

    AgentUpdate update =
        lab.node(Params.builder(lab.host.ports()).agent(newer())).updateAgent();

    assertThat(update).isEqualTo(AgentUpdate.INSTALLED);
    assertThat(lab.host.fs().readLink(HOME.resolve("current"))).isEqualTo(NEWER);
    assertThat(lab.host.fs().readLink(HOME.resolve("previous"))).isEqualTo(SimNode.AGENT_BUILD);
    List<PortCall> all = lab.host.journal().calls();
    List<PortCall> after = all.subList(before, all.size()).stream()
        .filter(c -> c.name().startsWith("systemd."))
        .toList();
    assertThat(after)
        .as("no unit of the stack is stopped, started or restarted")
        .noneMatch(c -> HostPaths.STACK_UNITS.stream().anyMatch(unit -> c.args().contains(unit)));
    assertThat(after).anyMatch(c -> c.is("systemd.restart", HostPaths.AGENT_UNIT));
    assertThat(lab.stackActive()).isTrue();
    assertThat(lab.host.snapshot(Path.of("/opt/unbounded")).diff(layout)).isEmpty();
    assertThat(lab.host.snapshot(Path.of("/etc/unbounded")).diff(etc))
        .as("only the ownership record changed, by the new build's files")
        .allMatch(line -> line.contains("-owned-files.json"));
  }

  @Test
  void theSameBuildAgainChangesNothing() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());
    FileTreeSnapshot agent = lab.host.snapshot(HOME);

    AgentUpdate update =
        lab.node(Params.builder(lab.host.ports()).agent(SimNode.agent())).updateAgent();

    assertThat(update).isEqualTo(AgentUpdate.UNCHANGED);
    assertThat(lab.host.snapshot(HOME).diff(agent)).isEmpty();
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive()).isTrue();
  }

  @Test
  void aNodeBootstrappedWithoutItsAgentGetsNone() throws IOException {
    lab.bootstrap(SimNode.config());

    AgentUpdate update =
        lab.node(Params.builder(lab.host.ports()).agent(newer())).updateAgent();

    assertThat(update).isEqualTo(AgentUpdate.NO_AGENT);
    assertThat(lab.exists(HOME)).isFalse();
  }

  @Test
  void aHostWithoutANodeIsRefusedAndLeftAsItWas() {
    FileTreeSnapshot before = lab.host.snapshot(Path.of("/"));

    assertThatThrownBy(
            () -> lab.node(Params.builder(lab.host.ports()).agent(newer())).updateAgent())
        .isInstanceOf(NodeAbsentException.class);

    assertThat(lab.host.snapshot(Path.of("/")).diff(before)).isEmpty();
  }

  private static AgentSetup newer() {
    AgentSetup current = SimNode.agent();
    return new AgentSetup(
        NEWER,
        () -> "a newer build".getBytes(StandardCharsets.UTF_8),
        current.java(),
        current.jvmOptions(),
        current.configFile(),
        current.manPages());
  }
}
