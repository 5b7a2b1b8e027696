package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code noneops demo --simulated} prints, line by line: the story only, true and narrow. */
class DemoEdgesTest {
  private static String story;

  @BeforeAll
  static void tellTheStory() throws Exception {
    StringWriter out = new StringWriter();
    ExitCode code = new LifecycleDemo()
        .run(
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true),
            new DemoRunner.Options(true, false));
    story = out.toString();
    assertThat(code).as(story).isEqualTo(ExitCode.OK);
  }

  @Test
  void coresLogGoesToAFileNamedOnceAtTheEnd() {
    StringWriter out = new StringWriter();
    CommandLine cli = DemoMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(new StringWriter(), true));

    int code = cli.execute("--simulated");

    assertThat(code).as(out.toString()).isEqualTo(ExitCode.OK.code());
    List<String> lines = out.toString().lines().toList();
    List<String> named =
        lines.stream().filter(l -> l.startsWith("core's log: ")).toList();
    assertThat(named).as(out.toString()).hasSize(1);
    assertThat(lines.get(lines.size() - 1)).isEqualTo(named.get(0));
    assertThat(Path.of(named.get(0).substring("core's log: ".length()))).isRegularFile();
  }

  @Test
  void theIntendedFailureIsMarkedAsExpected() {
    List<String> rollback = step("that never gets ready: automatic rollback");
    assertThat(rollback)
        .as(String.join("\n", rollback))
        .anyMatch(l -> l.contains("(expected: this target's kubelet never gets ready"));
  }

  @Test
  void statusOnTheSimulatedHostCountsTheTasksOfAContainerdWithNone() {
    List<String> pods = story.lines().filter(l -> l.startsWith("      | pods:")).toList();
    assertThat(pods)
        .as(story)
        .isNotEmpty()
        .allMatch(l -> l.equals("      | pods:      0 running (0 containerd tasks in k8s.io)"));
  }

  @Test
  void theBootLineSaysTheGateDidNotRunWithNothingInFlight() {
    List<String> status = step("[3] status");
    assertThat(status)
        .as(String.join("\n", status))
        .anyMatch(l -> l.contains("applied:   recorded"));
    assertThat(status.stream().filter(l -> l.startsWith("      | boot:")))
        .as(String.join("\n", status))
        .singleElement()
        .satisfies(l -> assertThat(l)
            .contains("the recovery gate did not run on this boot: its conditions found nothing"
                + " in flight"));
  }

  @Test
  void theDemosOwnLinesFit120Columns() {
    assertThat(story.lines().filter(l -> !l.startsWith("      | ") && l.length() > 120))
        .as(story)
        .isEmpty();
  }

  @Test
  void theKeptLinesOfUpgradeAndPruneFit120Columns() {
    List<String> kept = story
        .lines()
        .filter(l -> l.startsWith("      | kept "))
        .map(l -> l.substring("      | ".length()))
        .toList();
    assertThat(kept).as(story).isNotEmpty();
    assertThat(kept.stream().filter(l -> l.length() > 120)).isEmpty();
    assertThat(kept).allMatch(l -> l.contains("(--json lists all)"));
  }

  private static List<String> step(String title) {
    return story
        .lines()
        .dropWhile(l -> !l.contains(title))
        .takeWhile(l -> !l.startsWith("    => "))
        .toList();
  }
}
