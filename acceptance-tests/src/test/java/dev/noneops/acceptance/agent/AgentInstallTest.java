package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.ResetResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bootstrap installs the agent that runs it at a stable path, with the recovery gate the
 * stack's units require and the daemon's unit; a reset takes all of it away again.
 */
class AgentInstallTest {
  private static final Path HOME = Path.of("/usr/local/lib/noneops");
  private static final Path BUILD = HOME.resolve(SimNode.AGENT_BUILD);
  private static final Path COMMAND = Path.of("/usr/local/bin/noneops");
  private static final Path MAN = Path.of("/usr/local/share/man/man1");

  private final SimNode lab = new SimNode();

  @Test
  void bootstrapInstallsTheBuildAtAStablePathAndLinksItsCommand() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());

    assertThat(lab.host.fs().read(BUILD.resolve("lib/noneops.jar"))).isEqualTo(SimNode.agentJar());
    assertThat(lab.host.fs().stat(BUILD.resolve("bin/noneops")).orElseThrow().mode() & 0777)
        .isEqualTo(0755);
    assertThat(text(BUILD.resolve("bin/noneops")))
        .startsWith("#!/bin/sh\n")
        .endsWith("exec '/usr/lib/jvm/java-17/bin/java' '-Xmx64m' '-XX:SharedArchiveFile=" + BUILD
            + "/lib/noneops.jsa' -jar '" + BUILD + "/lib/noneops.jar' \"$@\"\n");
    assertThat(lab.host.fs().readLink(HOME.resolve("current"))).isEqualTo(SimNode.AGENT_BUILD);
    assertThat(lab.host.fs().readLink(COMMAND)).isEqualTo(HOME + "/current/bin/noneops");
  }

  @Test
  void theLauncherGivesTheDaemonItsOwnJvmOptionsAfterTheBuilds() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());

    String archive = "'-XX:SharedArchiveFile=" + BUILD + "/lib/noneops.jsa'";
    String jar = " -jar '" + BUILD + "/lib/noneops.jar' \"$@\"\n";
    assertThat(text(BUILD.resolve("bin/noneops")))
        .as("the daemon's young generation, stacks, compiler and code cache capped, after"
            + " the build's options so that they win; every other command as before")
        .contains("if [ \"${1-}\" = daemon ]; then\n"
            + "  exec '/usr/lib/jvm/java-17/bin/java' '-Xmx64m' '-XX:MaxNewSize=4m'"
            + " '-XX:MinHeapFreeRatio=10' '-XX:MaxHeapFreeRatio=30' '-Xss256k'"
            + " '-XX:CICompilerCount=1' '-XX:ReservedCodeCacheSize=16m' " + archive + jar
            + "fi\n"
            + "exec '/usr/lib/jvm/java-17/bin/java' '-Xmx64m' " + archive + jar);
  }

  @Test
  void bootstrapInstallsTheManPagesAsLinksThroughTheCurrentBuild() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());

    for (String page : SimNode.agentManPages().keySet()) {
      assertThat(lab.host.fs().read(BUILD.resolve("share/man/man1").resolve(page)))
          .isEqualTo(SimNode.agentManPages().get(page));
      assertThat(lab.host.fs().readLink(MAN.resolve(page)))
          .as("switched with the build")
          .isEqualTo(HOME + "/current/share/man/man1/" + page);
    }
  }

  @Test
  void resetRemovesExactlyTheManPagesItInstalledAndLeavesTheHostsOwn() throws IOException {
    lab.host.fs().seedFile(MAN.resolve("kubectl.1"), ".TH KUBECTL 1\n", 0644);
    FileTreeSnapshot before = lab.host.snapshot(Path.of("/usr/local/share"));
    lab.bootstrapWithAgent(SimNode.config());
    assertThat(lab.exists(MAN.resolve("noneops-status.1"))).isTrue();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(lab.host.snapshot(Path.of("/usr/local/share")).diff(before)).isEmpty();
    assertThat(text(MAN.resolve("kubectl.1"))).isEqualTo(".TH KUBECTL 1\n");
  }

  @Test
  void aBuildWithoutAPageOfTheLastOneLeavesNoLinkToIt() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());
    AgentSetup fewer = new AgentSetup(
        "0.2.0-fewerpages",
        SimNode::agentJar,
        Path.of("/usr/lib/jvm/java-17/bin/java"),
        List.of(),
        SimNode.AGENT_CONFIG_FILE,
        () -> Map.of("noneops.1", SimNode.agentManPages().get("noneops.1")));

    lab.node(Params.builder(lab.host.ports()).config(SimNode.config()).agent(fewer))
        .bootstrap(true);

    assertThat(lab.host.fs().readLink(MAN.resolve("noneops.1")))
        .isEqualTo(HOME + "/current/share/man/man1/noneops.1");
    assertThat(lab.exists(MAN.resolve("noneops-status.1"))).isFalse();
  }

  @Test
  void theStackRequiresTheRecoveryGateAndStartsAfterIt() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());

    assertThat(text(lab.paths.unit(HostPaths.RECOVERY_GATE_UNIT)))
        .startsWith(HostPaths.UNIT_MARKER)
        .contains("Type=oneshot", "RemainAfterExit=yes")
        .contains("ExecStart=" + HOME + "/current/bin/noneops recover --at-boot")
        .contains("Before=localdns.service containerd.service kubelet.service");
    for (String unit : HostPaths.STACK_UNITS) {
      assertThat(text(lab.paths.unit(unit + ".d").resolve("05-noneops-recover.conf")))
          .as(unit)
          .contains("Requires=noneops-recover.service", "After=noneops-recover.service");
    }
    assertThat(lab.host.systemd().isEnabled(HostPaths.RECOVERY_GATE_UNIT, "multi-user.target"))
        .isTrue();
    assertThat(lab.host.systemd().peek(HostPaths.RECOVERY_GATE_UNIT).isActive())
        .as("pulled in by the stack's first start, skipped by its conditions: nothing in flight")
        .isFalse();
    assertThat(lab.host.systemd().history())
        .anySatisfy(e -> assertThat(e.unit() + " " + e.event())
            .isEqualTo(HostPaths.RECOVERY_GATE_UNIT + " condition-failed"));
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void theDaemonRunsAsANotifyUnitWatchingTheConfigurationFile() throws IOException {
    lab.bootstrapWithAgent(SimNode.config());

    assertThat(text(lab.paths.unit(HostPaths.AGENT_UNIT)))
        .contains("Type=notify", "WatchdogSec=", "Restart=always")
        .as("the JVM ends a SIGTERM with status 143: a stop is a success, not a failed unit")
        .contains("SuccessExitStatus=143")
        .contains("ExecStart=" + HOME + "/current/bin/noneops daemon --config "
            + SimNode.AGENT_CONFIG_FILE);
    assertThat(lab.host.systemd().isEnabled(HostPaths.AGENT_UNIT, "multi-user.target"))
        .isTrue();
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive()).isTrue();
  }

  @Test
  void resetRemovesTheAgentItsUnitsAndPutsBackACommandThatWasThereBefore() throws IOException {
    lab.host.fs().seedFile(COMMAND, "#!/bin/sh\necho the operator's own noneops\n", 0755);
    lab.host.ports().files().createDirectories(lab.paths.unit("multi-user.target.wants"), 0755);
    FileTreeSnapshot usrLocal = lab.host.snapshot(Path.of("/usr/local"));
    FileTreeSnapshot units = lab.host.snapshot(lab.paths.systemdDir());
    lab.bootstrapWithAgent(SimNode.config());

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(lab.host.snapshot(Path.of("/usr/local")).diff(usrLocal)).isEmpty();
    assertThat(lab.host.snapshot(lab.paths.systemdDir()).diff(units)).isEmpty();
    assertThat(lab.host.systemd().peek(HostPaths.AGENT_UNIT).isActive()).isFalse();
    assertThat(lab.exists(lab.paths.agentState())).isFalse();
  }

  @Test
  void aBootstrapWithoutAnAgentWritesNoGate() {
    lab.bootstrap(SimNode.config());

    assertThat(lab.exists(lab.paths.unit(HostPaths.RECOVERY_GATE_UNIT))).isFalse();
    assertThat(lab.exists(lab.paths.unit("kubelet.service.d").resolve("05-noneops-recover.conf")))
        .isFalse();
    assertThat(lab.exists(HOME)).isFalse();
    assertThat(lab.stackActive()).isTrue();
  }

  private String text(Path path) throws IOException {
    return new String(lab.host.fs().read(path), StandardCharsets.UTF_8);
  }
}
