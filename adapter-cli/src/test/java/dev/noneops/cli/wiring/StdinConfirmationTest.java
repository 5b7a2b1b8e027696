package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StdinConfirmationTest {

  @Test
  void onAStdinThatIsNoTerminalNobodyIsAskedAndNothingIsPrinted() {
    StringWriter err = new StringWriter();

    assertThat(new StdinConfirmation(fd -> false, input("y\n"))
            .ask(new PrintWriter(err, true), "Remove?"))
        .isEmpty();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void onATerminalOnlyYIsYesAndTheQuestionEndsWithTheDefault() {
    StringWriter err = new StringWriter();
    assertThat(new StdinConfirmation(fd -> fd == 0, input("Yes\n"))
            .ask(new PrintWriter(err, true), "Remove?"))
        .contains(true);
    assertThat(err.toString()).isEqualTo("Remove? [y/N] ");

    for (String no : new String[] {"\n", "n\n", "sure\n", ""}) {
      assertThat(new StdinConfirmation(fd -> true, input(no))
              .ask(new PrintWriter(new StringWriter(), true), "Remove?"))
          .as(no)
          .contains(false);
    }
  }

  private static ByteArrayInputStream input(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }
}
