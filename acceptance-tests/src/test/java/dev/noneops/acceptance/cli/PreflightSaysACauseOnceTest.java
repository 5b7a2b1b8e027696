package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * When one cause keeps several checks from looking (systemd does not answer), {@code preflight}
 * says the cause once and each remedy once, naming every check it holds for, instead of repeating
 * the same failure line after line.
 */
class PreflightSaysACauseOnceTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void aFailureSharedByChecksIsSaidOnceAndItsRemedyOnce() {
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    cli.systemBusUnreachable();

    Run run = cli.run("preflight");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(7);
    List<String> failed = run.out().lines().filter(l -> l.startsWith("FAIL")).toList();
    assertThat(failed).as(run.out()).hasSizeGreaterThan(1);
    assertThat(occurrences(run.out(), "cannot reach the system bus"))
        .as(run.out())
        .isEqualTo(1);
    assertThat(failed.subList(1, failed.size()))
        .allSatisfy(l -> assertThat(l).endsWith("could not check: the same failure as systemd"));
    assertThat(occurrences(run.out(), "fix what keeps the check from looking"))
        .as(run.out())
        .isEqualTo(1);
    assertThat(run.out())
        .contains("  foreign-stack, shared-files  fix what keeps the check from looking");
  }

  private static int occurrences(String text, String what) {
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
