package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.noneops.cli.ExitCode;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's java is checked at every start, not only at bootstrap: once a user or group other
 * than root can change it or a directory above it, the daemon refuses to run (one line, non-zero
 * exit) and the recovery gate does no recovery work — it lets the stack start when nothing is in
 * flight, and keeps it down, saying why, when an upgrade is.
 */
class AgentRunsOnlyOnARootJavaTest {
  private static final Path JVM = Path.of("/usr/lib/jvm");

  private final SimulatedHost host = SimulatedHost.create();
  private final SimCli cli = new SimCli(host).withAgent();

  @BeforeEach
  void aNodeWithItsAgentWhoseJavaAUserCanChangeSinceItsBootstrap() throws IOException {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    Run boot = cli.run("bootstrap");
    assertThat(boot.exitCode()).as(boot.err()).isEqualTo(ExitCode.OK.code());
    host.fs().seedDirectory(JVM, 0777);
  }

  @Test
  void theDaemonRefusesToRunOnOneLine() {
    Run daemon = assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> cli.run("daemon", "--config", SimCli.CONFIG.toString()),
        "the daemon ran its loop");

    assertThat(daemon.exitCode()).as(daemon.err()).isNotZero();
    assertThat(daemon.err().lines().filter(l -> l.startsWith("noneops daemon: ")))
        .singleElement()
        .asString()
        .contains("the agent's java /usr/lib/jvm/java-17/bin/java", JVM + " (owner 0, mode 0777)");
  }

  @Test
  void theGateWithNothingInFlightDoesNoRecoveryWorkAndLetsTheStackStartSayingWhy()
      throws IOException {
    Path leftOver = cli.layout().root().resolve(HostFiles.TEMP_PREFIX + "left-over");
    host.fs().seedFile(leftOver, "partial", 0600);

    Run gate = cli.run("recover", "--at-boot");

    assertThat(gate.exitCode()).as(gate.err()).isEqualTo(ExitCode.OK.code());
    assertThat(gate.out().lines())
        .singleElement()
        .asString()
        .startsWith("noneops recovery gate: refused to recover: the agent's java ")
        .contains(JVM + " (owner 0, mode 0777)", "nothing in flight");
    assertThat(host.ports().files().exists(leftOver))
        .as("no recovery work, not even a clean-up")
        .isTrue();
  }

  @Test
  void theGateStartedOnALiveNodeWithAnUpgradeInFlightPassesAndChangesNothing() throws IOException {
    // a stack unit started by an operation pulls the gate in when the daemon has not started in
    // this boot (its conditions let it run while the operation's journal is there)
    host.fs().seedFile(cli.layout().journal(), "{}", 0600);
    FileTreeSnapshot before = host.snapshot();
    Run gate;
    try (HostLock held = host.ports().files().tryLock(cli.layout().lock()).orElseThrow()) {
      gate = cli.run("recover", "--at-boot");
    }

    assertThat(gate.exitCode()).as(gate.err()).isEqualTo(ExitCode.OK.code());
    assertThat(gate.out().lines())
        .singleElement()
        .asString()
        .startsWith("noneops recovery gate: the node is live, not booting");
    assertThat(host.snapshot().diff(before))
        .as("the journal and the versions untouched")
        .allSatisfy(change -> assertThat(change).contains("agent"));
  }

  @Test
  void theGateWithAnUpgradeInFlightKeepsTheStackDownSayingWhy() throws IOException {
    host.fs().seedFile(cli.layout().journal(), "{}", 0600);
    FileTreeSnapshot before = host.snapshot();

    Run gate = cli.run("recover", "--at-boot");

    assertThat(gate.exitCode()).as(gate.out()).isNotZero();
    assertThat(gate.err().lines().filter(l -> l.startsWith("noneops recover: ")))
        .singleElement()
        .asString()
        .contains("the agent's java", JVM + " (owner 0, mode 0777)", "stack stays down");
    assertThat(host.snapshot().diff(before))
        .as("the journal and the versions untouched; only the agent's state records the refusal")
        .allSatisfy(change -> assertThat(change).contains("agent"));
  }
}
