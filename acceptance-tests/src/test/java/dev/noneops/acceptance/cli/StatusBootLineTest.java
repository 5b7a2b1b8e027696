package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.layout.Layout;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code status}'s {@code boot:} line tells what the recovery gate did in this boot: its run, or
 * that systemd's conditions skipped it with nothing in flight, never an earlier boot's run as this
 * one's.
 */
class StatusBootLineTest {
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  private final SimCli cli = new SimCli(SimulatedHost.create()).withAgent();

  @Test
  void afterTheBootstrapTheBootLineSaysTheGateDidNotRunWithNothingInFlight() {
    cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();

    Run status = cli.run("status");

    assertThat(status.out()).contains("applied:   recorded");
    assertThat(bootLine(status))
        .isEqualTo("boot:      the recovery gate did not run on this boot: its conditions found"
            + " nothing in flight");
  }

  @Test
  void afterABootWithWorkInFlightTheBootLineIsThatBootsRun() throws IOException {
    cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.host().crash();
    leaveStaging();
    cli.boot();

    Run status = cli.run("status");

    assertThat(bootLine(status))
        .startsWith("boot:      boot-recovery NOTHING_TO_DO at ")
        .doesNotContain("before the configuration")
        .doesNotContain("no applied configuration")
        .doesNotContain("did not run");
  }

  @Test
  void afterACleanBootTheBootLineSaysTheGateDidNotRunAndNamesItsLastRunAsAnEarlierBootsOne()
      throws IOException {
    cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.host().crash();
    leaveStaging();
    cli.boot();
    cli.host().crash();
    cli.boot();

    Run status = cli.run("status");

    assertThat(bootLine(status))
        .startsWith("boot:      the recovery gate did not run on this boot: its conditions found"
            + " nothing in flight; its last run, in an earlier boot: boot-recovery NOTHING_TO_DO"
            + " at ");
  }

  private void leaveStaging() throws IOException {
    synchronized (cli.host().monitor()) {
      cli.host().fs().seedDirectory(Layout.defaultLayout().staging(), 0700);
      cli.host()
          .fs()
          .seedFile(Layout.defaultLayout().staging().resolve("partial"), "a download\n", 0600);
    }
  }

  private static String bootLine(Run status) {
    List<String> lines = status.out().lines().filter(l -> l.startsWith("boot:")).toList();
    assertThat(lines).as(status.out()).hasSize(1);
    return lines.get(0);
  }
}
