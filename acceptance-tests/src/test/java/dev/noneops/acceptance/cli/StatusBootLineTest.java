package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import org.junit.jupiter.api.Test;

/**
 * {@code status}'s {@code boot:} line tells the recovery gate's last run as of its moment: when the
 * gate ran before the bootstrap recorded the configuration, it says so, and does not contradict
 * the {@code applied:} line above it.
 */
class StatusBootLineTest {
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  private final SimCli cli = new SimCli(SimulatedHost.create()).withAgent();

  @Test
  void afterTheBootstrapTheBootLineSaysTheGateRanBeforeTheConfigurationWasApplied() {
    cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();

    Run status = cli.run("status");

    assertThat(status.out()).contains("applied:   recorded");
    assertThat(status.out().lines().filter(l -> l.startsWith("boot:")))
        .as(status.out())
        .singleElement()
        .satisfies(l -> assertThat(l)
            .startsWith("boot:      boot-recovery NOTHING_TO_DO at ")
            .contains(", before the configuration was applied: ")
            .endsWith("no operation in flight and no applied configuration"));
  }

  @Test
  void afterABootTheBootLineIsTheBootsAlone() {
    cli.configure(SimCli.CONFIG, BASE.json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    cli.host().crash();
    cli.boot();

    Run status = cli.run("status");

    assertThat(status.out().lines().filter(l -> l.startsWith("boot:")))
        .as(status.out())
        .singleElement()
        .satisfies(l -> assertThat(l)
            .startsWith("boot:      boot-recovery NOTHING_TO_DO at ")
            .doesNotContain("before the configuration")
            .doesNotContain("no applied configuration"));
  }
}
