package dev.noneops.acceptance.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.Params;
import dev.noneops.core.node.ResetResult;
import dev.noneops.ports.commands.Command;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The installed agent build gets a class-data sharing archive made on the host for its own jar
 * and java, which its launcher names; one that cannot be made costs only speed, and a reset
 * removes it with the build.
 */
class AgentClassDataArchiveTest {
  private static final Path BUILD = Path.of("/usr/local/lib/noneops").resolve(SimNode.AGENT_BUILD);
  private static final Path JAR = BUILD.resolve("lib/noneops.jar");
  private static final Path ARCHIVE = BUILD.resolve("lib/noneops.jsa");
  private static final String JAVA = "/usr/lib/jvm/java-17/bin/java";
  private static final byte[] DUMPED = "a class-data archive".getBytes(StandardCharsets.UTF_8);

  private final SimNode lab = new SimNode();
  private final List<List<String>> javaRuns = new ArrayList<>();
  private boolean archiveMaps = true;

  @Test
  void bootstrapTrainsAndDumpsAnArchiveForTheInstalledJarAndTheLauncherNamesIt()
      throws IOException {
    simulateJava();

    lab.bootstrapWithAgent(SimNode.config());

    assertThat(lab.host.fs().read(ARCHIVE)).isEqualTo(DUMPED);
    assertThat(javaRuns).hasSize(2);
    assertThat(javaRuns.get(0)).contains("-jar", JAR.toString(), "cds-training");
    assertThat(javaRuns.get(0)).anyMatch(a -> a.startsWith("-XX:DumpLoadedClassList="));
    assertThat(javaRuns.get(1)).contains("-Xshare:dump", "-cp", JAR.toString());
    assertThat(text(BUILD.resolve("bin/noneops")))
        .contains("'-XX:SharedArchiveFile=" + ARCHIVE + "' -jar '" + JAR + "'");
    assertThat(lab.exists(lab.layout.staging().resolve("agent-class-data")))
        .as("the training's scratch space is removed")
        .isFalse();
  }

  @Test
  void anArchiveTheJvmStillMapsIsKeptAndOneItNoLongerMapsIsMadeAgain() throws IOException {
    simulateJava();
    lab.bootstrapWithAgent(SimNode.config());
    javaRuns.clear();

    lab.bootstrapWithAgent(SimNode.config());
    assertThat(javaRuns).as("only the check that the JVM maps it").hasSize(1);
    assertThat(javaRuns.get(0)).contains("-Xshare:on", "-XX:SharedArchiveFile=" + ARCHIVE);

    archiveMaps = false; // after a JDK update, say
    javaRuns.clear();
    lab.bootstrapWithAgent(SimNode.config());
    assertThat(javaRuns).hasSize(3);
    assertThat(javaRuns.get(2)).contains("-Xshare:dump");
  }

  @Test
  void anArchiveThatCannotBeMadeLeavesABootstrapThatSucceedsWithoutOne() throws IOException {
    // No java program on the simulated host: the training run fails like a missing program.
    lab.bootstrapWithAgent(SimNode.config());

    assertThat(lab.exists(ARCHIVE)).isFalse();
    assertThat(lab.exists(JAR)).isTrue();
    assertThat(lab.stackActive()).isTrue();
    assertThat(lab.exists(lab.layout.staging().resolve("agent-class-data"))).isFalse();
  }

  @Test
  void resetRemovesTheArchiveWithTheBuild() throws IOException {
    simulateJava();
    FileTreeSnapshot usrLocal = lab.host.snapshot(Path.of("/usr/local"));
    lab.bootstrapWithAgent(SimNode.config());
    assertThat(lab.exists(ARCHIVE)).isTrue();

    ResetResult reset = lab.node(Params.builder(lab.host.ports())).reset();

    assertThat(reset.complete()).as(reset.report().kept().toString()).isTrue();
    assertThat(lab.host.snapshot(Path.of("/usr/local")).diff(usrLocal)).isEmpty();
  }

  /** A java that records its runs, writes the archive a dump names and maps it while allowed. */
  private void simulateJava() {
    lab.host.commands().register(List.of(JAVA), (Command command) -> {
      List<String> argv = command.argv();
      javaRuns.add(argv);
      if (argv.contains("-Xshare:on")) {
        return archiveMaps ? CommandOutcome.ok("noneops") : CommandOutcome.failed(1, "not mapped");
      }
      if (argv.contains("-Xshare:dump")) {
        String file = argv.stream()
            .filter(a -> a.startsWith("-XX:SharedArchiveFile="))
            .findFirst()
            .orElseThrow()
            .substring("-XX:SharedArchiveFile=".length());
        lab.host.fs().seedFile(Path.of(file), DUMPED, 0444);
      }
      return CommandOutcome.ok();
    });
  }

  private String text(Path path) throws IOException {
    return new String(lab.host.fs().read(path), StandardCharsets.UTF_8);
  }
}
