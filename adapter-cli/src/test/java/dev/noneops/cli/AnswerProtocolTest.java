package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.cli.AnswerProtocol.Answer;
import dev.noneops.cli.AnswerProtocol.ProtocolException;
import dev.noneops.cli.AnswerProtocol.Request;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AnswerProtocolTest {

  @Test
  void aRequestLineNamesTheProtocolTheBuildTheCommandAndTheForm() throws Exception {
    Request request = new Request("0.1.0-SNAPSHOT", Inspection.LAUNCH_CHECK, true);

    String line = new String(request.encode(), StandardCharsets.UTF_8);

    assertThat(line).isEqualTo("noneops-answer/1 0.1.0-SNAPSHOT allocation-launch-check json\n");
    assertThat(Request.parse(line.strip())).isEqualTo(request);
    assertThat(Request.parse("noneops-answer/1 b status text"))
        .isEqualTo(new Request("b", Inspection.STATUS, false));
  }

  @Test
  void aLineThatIsNotARequestOfThisVersionIsRefused() {
    for (String bad : new String[] {
      "",
      "GET / HTTP/1.1",
      "noneops-answer/2 b status text",
      "noneops-answer/1 b status",
      "noneops-answer/1 b status text extra",
      "noneops-answer/1  status text",
      "noneops-answer/1 b reset text",
      "noneops-answer/1 b status yaml",
      "noneops-answer/1 b\tc status text"
    }) {
      assertThatThrownBy(() -> Request.parse(bad)).as(bad).isInstanceOf(ProtocolException.class);
    }
  }

  @Test
  void aBuildThatIsNotOneWordCannotBeAsked() {
    assertThatThrownBy(() -> new Request("1.0 beta", Inspection.STATUS, false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAnswerCarriesTheExitCodeAndTheExactBytesOfStdout() throws Exception {
    String stdout = "node:      installed\nstack:     not running · 1.31 → 1.32\n";

    Answer answer = AnswerProtocol.parseAnswer(
        AnswerProtocol.answered(new InspectionReport(ExitCode.UNHEALTHY, stdout)));

    assertThat(answer.exitCode()).isEqualTo(7);
    assertThat(new String(answer.stdout(), StandardCharsets.UTF_8)).isEqualTo(stdout);
  }

  @Test
  void aMismatchARefusalAndAMalformedAnswerAreNoAnswer() {
    assertThatThrownBy(() -> AnswerProtocol.parseAnswer(AnswerProtocol.mismatch("9.9.9")))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("another build: 9.9.9");
    assertThatThrownBy(() -> AnswerProtocol.parseAnswer(AnswerProtocol.refused("busy\nnow")))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("the daemon refused: busy now");
    for (String bad : new String[] {
      "",
      "noneops-answer/1 answered 0 5\nabc",
      "noneops-answer/1 answered 0 2\nabc",
      "noneops-answer/1 answered x 3\nabc",
      "noneops-answer/1 answered 0 99999999\nabc",
      "noneops-answer/1 answered 0\nabc",
      "noneops-answer/0 answered 0 3\nabc",
      "noneops-answer/1 maybe\n"
    }) {
      assertThatThrownBy(() -> AnswerProtocol.parseAnswer(bad.getBytes(StandardCharsets.UTF_8)))
          .as(bad)
          .isInstanceOf(ProtocolException.class);
    }
  }
}
