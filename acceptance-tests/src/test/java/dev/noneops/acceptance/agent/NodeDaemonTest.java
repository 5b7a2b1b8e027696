package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.JournaledUpgrade;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.daemon.AgentState;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * {@code noneops daemon} on a simulated host: it recovers at start before it reports ready, then
 * follows its configuration file through the CLI's own operations.
 */
class NodeDaemonTest {
  private static final AgentConfig V1 = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig V1_GREEN = SimNode.config("1.31.4", "", "green");
  private static final AgentConfig V2 = SimNode.config("1.31.5", "", "blue");
  private static final AgentConfig V3 = SimNode.config("1.31.6", "", "blue");

  private SimNode lab;
  private final List<String> told = new ArrayList<>();

  @BeforeEach
  void aNodeOnV1WithItsAgent() {
    lab = new SimNode();
    lab.bootstrapWithAgent(V1);
    lab.publish(V2).publish(V3);
  }

  private NodeDaemon daemon() {
    return lab.daemon(
        Duration.ofSeconds(5),
        new NodeDaemon.Listener() {
          @Override
          public void ready() {
            told.add("READY");
          }

          @Override
          public void status(String line) {
            told.add("STATUS " + line);
          }
        },
        NOPLogger.NOP_LOGGER);
  }

  private AgentState state() {
    return AgentState.read(lab.host.ports().files(), lab.paths);
  }

  @Test
  void atStartItFinishesAnInterruptedUpgradeBeforeItReportsReady() {
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.crash();

    daemon().start();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.stackActive()).as("a live recovery starts the stack").isTrue();
    assertThat(told).first().isEqualTo("READY");
    assertThat(state().startRecovery())
        .hasValueSatisfying(e -> assertThat(e.outcome()).isEqualTo("ROLLED_BACK"));
    assertThat(state().watching())
        .hasValueSatisfying(
            w -> assertThat(w.configFile()).isEqualTo(SimNode.AGENT_CONFIG_FILE.toString()));
  }

  @Test
  void aFileThatMatchesTheAppliedConfigurationChangesNothing() {
    Map<String, String> before = lab.sharedFiles();
    NodeDaemon daemon = daemon();
    daemon.start();

    daemon.tick();

    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(withoutAgentState(before));
    assertThat(state().lastOperation()).isEmpty();
  }

  @Test
  void aChangedConfigurationOfTheRunningVersionIsApplied() {
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.writeDesired(V1_GREEN);

    daemon.tick();

    assertThat(lab.applied()).contains(V1_GREEN);
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(state().lastOperation())
        .hasValueSatisfying(e -> assertThat(e.outcome()).isEqualTo("APPLIED"));
  }

  @Test
  void anotherVersionIsUpgradedToAndCommitted() {
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.writeDesired(V2);

    daemon.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.applied()).contains(V2);
    assertThat(lab.exists(lab.layout.journal())).as("committed").isFalse();
    assertThat(state().lastOperation())
        .hasValueSatisfying(e -> assertThat(e.outcome()).isEqualTo("COMMITTED"));
  }

  @Test
  void anInvalidFileIsRefusedWithItsViolationsAndTheNodeKeepsRunning() throws IOException {
    Map<String, String> before = withoutAgentState(lab.sharedFiles());
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.host.fs().seedFile(SimNode.AGENT_CONFIG_FILE, "{ \"MachineName\": \"\" }", 0644);

    daemon.tick();

    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo("INVALID");
      assertThat(e.detail()).contains("Cluster");
    });
    assertThat(withoutAgentState(lab.sharedFiles())).isEqualTo(before);
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void aTargetThatRollsBackIsQuarantinedUntilTheFileChanges() {
    lab.kubeletNeverReady.add(lab.versionOf(V2));
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.writeDesired(V2);

    daemon.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(state().lastOperation())
        .hasValueSatisfying(e -> assertThat(e.outcome()).isEqualTo("ROLLED_BACK"));
    assertThat(state().quarantined())
        .singleElement()
        .satisfies(q -> assertThat(q.targetVersion()).isEqualTo(lab.versionOf(V2)));

    long callsBefore = lab.host.journal().calls().size();
    daemon.tick();
    daemon.tick();
    assertThat(lab.host.journal().calls().stream()
            .skip(callsBefore)
            .filter(c -> c.is("systemd.stopAll", "kubelet.service")))
        .as("no second attempt while the file asks for the quarantined target")
        .isEmpty();

    lab.writeDesired(V3);
    daemon.tick();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V3));
    assertThat(state().quarantined()).isEmpty();
  }

  @Test
  void anOperatorsOwnUpgradeIsNotUndoneByAFileThatDidNotChange() {
    NodeDaemon first = daemon();
    first.start();
    first.tick();
    lab.node(V2, Optional.of(V1)).upgradeAndCommit(UpgradeOptions.DEFAULTS);

    NodeDaemon restarted = daemon();
    restarted.start();
    restarted.tick();

    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    lab.writeDesired(V3);
    restarted.tick();
    assertThat(lab.activeVersionRaw()).as("a changed file is followed").contains(lab.versionOf(V3));
  }

  @Test
  void anUpgradeWhoseAgentDiedWhileTheDaemonRunsIsRecoveredAtTheNextTickBeforeAnythingIsApplied() {
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.writeDesired(V1_GREEN);

    daemon.tick();

    assertThat(lab.exists(lab.layout.journal())).as("recovered").isFalse();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.stackActive()).isTrue();
    assertThat(lab.applied()).as("nothing applied over an upgrade in flight").contains(V1);
    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.kind()).isEqualTo("recovery");
      assertThat(e.outcome()).isEqualTo("ROLLED_BACK");
    });

    daemon.tick();
    assertThat(lab.applied()).as("then the changed file is followed").contains(V1_GREEN);
  }

  /** A process of the host's other than the daemon: an agent that embeds the node as a library. */
  private SimProcess embeddingAgent() {
    lab.host.installExecutable(Path.of("/usr/local/bin/embedder"), "embedder");
    return lab.host.spawn(ProcessSpec.of("/usr/local/bin/embedder", "embedder"));
  }

  @Test
  void anUpgradeAnEmbeddingAgentFinishedIsLeftForItToCommitWhileItPersistsTheAppliedConfig() {
    NodeDaemon daemon = daemon();
    daemon.start();
    SimProcess embedder = embeddingAgent();
    lab.host.actAs(embedder);
    Node node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.host.actAsAgent();

    daemon.tick();
    lab.host.actAs(embedder);
    lab.persistApplied(V2);
    lab.host.actAsAgent();
    daemon.tick();
    lab.host.actAs(embedder);
    Optional<JournaledUpgrade> committed = node.commit();
    lab.host.actAsAgent();

    assertThat(committed)
        .as("the journal was still there to commit")
        .hasValueSatisfying(r -> assertThat(r.targetVersion()).isEqualTo(lab.versionOf(V2)));
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V2));
    assertThat(lab.applied()).contains(V2);
    assertThat(lab.exists(lab.layout.journal())).isFalse();
    assertThat(lab.stackActive()).isTrue();
    assertThat(state().lastOperation()).as("nothing rolled back").isEmpty();
    assertThat(state().quarantined()).as("nothing quarantined").isEmpty();
  }

  @Test
  void anUpgradeWhoseEmbeddingAgentDiedIsRecoveredAtTheNextTick() {
    NodeDaemon daemon = daemon();
    daemon.start();
    SimProcess embedder = embeddingAgent();
    lab.host.actAs(embedder);
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.actAsAgent();
    lab.host.processes().exit(embedder.pid());

    daemon.tick();

    assertThat(lab.exists(lab.layout.journal())).as("recovered").isFalse();
    assertThat(lab.activeVersionRaw()).contains(lab.versionOf(V1));
    assertThat(lab.stackActive()).isTrue();
    assertThat(state().lastOperation()).hasValueSatisfying(e -> {
      assertThat(e.kind()).isEqualTo("recovery");
      assertThat(e.outcome()).isEqualTo("ROLLED_BACK");
    });
  }

  @Test
  void aJournalOfThePreviousFormatNamesNoOwnerAndIsRecoveredAtTheDaemonsStartNotWhileItWatches()
      throws IOException {
    NodeDaemon daemon = daemon();
    daemon.start();
    SimProcess embedder = embeddingAgent();
    lab.host.actAs(embedder);
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.actAsAgent();
    String journal =
        new String(lab.host.ports().files().read(lab.layout.journal()), StandardCharsets.UTF_8);
    lab.host
        .fs()
        .seedFile(
            lab.layout.journal(),
            journal.replaceAll(",\\s*\"owner\"\\s*:\\s*\\{[^}]*\\}", ""),
            0600);
    assertThat(
            new String(lab.host.ports().files().read(lab.layout.journal()), StandardCharsets.UTF_8))
        .doesNotContain("owner");

    daemon.tick();
    assertThat(lab.activeVersionRaw()).as("left while it watches").contains(lab.versionOf(V2));
    assertThat(lab.exists(lab.layout.journal())).isTrue();

    daemon().start();
    assertThat(lab.activeVersionRaw()).as("recovered at start").contains(lab.versionOf(V1));
    assertThat(lab.exists(lab.layout.journal())).isFalse();
  }

  @Test
  void anUpgradeThatCannotBeRecoveredIsTriedAgainOnceAMinuteNotAtEveryTick() throws IOException {
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.node(V2, Optional.of(V1)).upgrade();
    lab.host.ports().files().removeDurably(lab.paths.appliedConfig());

    daemon.tick();
    AgentState.Event first = state().lastOperation().orElseThrow();
    lab.host.clock().advance(Duration.ofSeconds(30));
    daemon.tick();

    assertThat(first.outcome()).isEqualTo("FAILED");
    assertThat(first.detail()).contains("applied configuration", "missing");
    assertThat(state().lastOperation()).contains(first);
    lab.host.clock().advance(Duration.ofSeconds(31));
    daemon.tick();
    assertThat(state().lastOperation().orElseThrow().at()).isAfter(first.at());
  }

  @Test
  void aBusyNodeIsTriedAgainAtTheNextTick() throws IOException {
    NodeDaemon daemon = daemon();
    daemon.start();
    lab.writeDesired(V1_GREEN);
    try (HostLock held = lab.host.ports().files().tryLock(lab.layout.lock()).orElseThrow()) {
      daemon.tick();
      assertThat(lab.applied()).contains(V1);
    }

    daemon.tick();

    assertThat(lab.applied()).contains(V1_GREEN);
  }

  /** The node's files, less the agent's own state and the file the test writes. */
  private Map<String, String> withoutAgentState(Map<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.remove(lab.paths.agentState().toString());
    out.remove(SimNode.AGENT_CONFIG_FILE.toString());
    return out;
  }
}
