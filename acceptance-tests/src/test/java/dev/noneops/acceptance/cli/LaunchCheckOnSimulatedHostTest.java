package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code allocation-launch-check} on a {@code current} that does not name a version of the layout: a failed check, never a crash. */
class LaunchCheckOnSimulatedHostTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());
  private Path current;

  @BeforeEach
  void bootstrap() throws Exception {
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    assertThat(cli.run("bootstrap").exitCode()).isZero();
    current = cli.layout().current();
    cli.host().ports().files().removeDurably(current);
  }

  @Test
  void aCurrentThatIsADirectoryIsAFailedCheckNamingIt() throws Exception {
    cli.host().ports().files().createDirectories(current, 0755);

    Run check = cli.run("allocation-launch-check");

    assertFailedCheck(
        check, current + " is a directory, not the symlink naming the active version");
  }

  @Test
  void aCurrentPointingOutsideTheLayoutIsAFailedCheckNamingWhere() throws Exception {
    cli.host().ports().files().symlinkDurably(current, "/etc");

    Run check = cli.run("allocation-launch-check");

    assertFailedCheck(
        check,
        current + " points at '/etc', which is not a version directory of "
            + cli.layout().root());
  }

  @Test
  void aCurrentClimbingOutOfTheLayoutIsAFailedCheckNamingWhere() throws Exception {
    cli.host().ports().files().symlinkDurably(current, "../../../etc");

    Run check = cli.run("allocation-launch-check", "--json");

    assertThat(check.exitCode()).as(check.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(check.out())
        .contains("\"healthy\" : false")
        .contains(current + " points at '../../../etc', which is not a version directory of "
            + cli.layout().root());
    assertThat(check.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  private static void assertFailedCheck(Run check, String reason) {
    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(check.out()).startsWith("unhealthy:").contains("  - " + reason);
    assertThat(check.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
