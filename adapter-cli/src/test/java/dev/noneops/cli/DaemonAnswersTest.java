package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.AnswerProtocol.Request;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

class DaemonAnswersTest {
  private static final String BUILD = "1.2.3-test";

  @TempDir
  Path root;

  @Test
  void onlyTheInspectionsWithTheirDefaultOptionsAreForTheDaemon() {
    assertThat(DaemonAnswers.request(List.of("status"), BUILD))
        .contains(new Request(BUILD, Inspection.STATUS, false));
    assertThat(DaemonAnswers.request(List.of("--json", "status"), BUILD))
        .contains(new Request(BUILD, Inspection.STATUS, true));
    assertThat(DaemonAnswers.request(List.of("-vv", "allocation-launch-check", "--json"), BUILD))
        .contains(new Request(BUILD, Inspection.LAUNCH_CHECK, true));
    for (List<String> direct : List.<List<String>>of(
        List.of(),
        List.of("status", "--direct"),
        List.of("--direct", "status"),
        List.of("status", "--help"),
        List.of("status", "-h"),
        List.of("status", "-V"),
        List.of("status", "status"),
        List.of("status", "--json", "--json"),
        List.of("status", "extra"),
        List.of("versions"),
        List.of("--json"),
        List.of("status", "allocation-launch-check"))) {
      assertThat(DaemonAnswers.request(direct, BUILD)).as("%s", direct).isEmpty();
    }
    assertThat(DaemonAnswers.request(List.of("status"), "two words")).isEmpty();
  }

  @Test
  void theDaemonsAnswerIsPrintedAsItCameAndItsExitCodeReturned() throws Exception {
    Path socket = root.resolve("run/noneops/daemon.sock");
    String stdout = "healthy: version 1.31.4-abc → ok\n";
    try (DaemonAnswerServer server = DaemonAnswerServer.start(
        socket,
        BUILD,
        (what, json) -> new InspectionReport(ExitCode.OK, stdout),
        new JournalLogger("test", new PrintWriter(new StringWriter(), true), Level.DEBUG),
        Duration.ofSeconds(1))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<String> notAnswered = new ArrayList<>();

      OptionalInt exit = DaemonAnswers.answer(
          List.of("allocation-launch-check"), BUILD, socket, out, notAnswered::add);

      assertThat(exit).hasValue(0);
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(stdout);
      assertThat(notAnswered).isEmpty();
    }
  }

  @Test
  void withoutADaemonNothingIsPrintedAndTheReasonGoesToTheDebugLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> notAnswered = new ArrayList<>();

    OptionalInt exit = DaemonAnswers.answer(
        List.of("status"), BUILD, root.resolve("run/noneops/daemon.sock"), out, notAnswered::add);

    assertThat(exit).isEmpty();
    assertThat(out.size()).isZero();
    assertThat(notAnswered)
        .singleElement()
        .asString()
        .startsWith("status not answered by the daemon at " + root)
        .endsWith("; inspecting the host directly");
  }

  @Test
  void aCommandLineNotForTheDaemonAsksNothing() {
    List<String> notAnswered = new ArrayList<>();

    OptionalInt exit = DaemonAnswers.answer(
        List.of("status", "--direct"),
        BUILD,
        root.resolve("daemon.sock"),
        new ByteArrayOutputStream(),
        notAnswered::add);

    assertThat(exit).isEmpty();
    assertThat(notAnswered).isEmpty();
  }
}
