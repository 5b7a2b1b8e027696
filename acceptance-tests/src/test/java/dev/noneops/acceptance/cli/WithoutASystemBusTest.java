package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import org.junit.jupiter.api.Test;

/**
 * A command that needs systemd on a host where its system bus cannot be reached fails with one
 * line that names the bus and says what to do, not a bare D-Bus error.
 */
class WithoutASystemBusTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void planSaysTheBusCannotBeReachedAndWhatToDo() {
    cli.configure(
        SimCli.CONFIG, ConfigJson.of("1.31.4").withContainerd("1.7.22").json());
    cli.systemBusUnreachable();

    Run run = cli.run("plan");

    assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
    assertThat(run.err().lines()).as(run.err()).hasSize(1);
    assertThat(run.err())
        .contains("cannot reach the system bus at /run/dbus/system_bus_socket")
        .endsWith("; run it on a host booted with systemd whose system bus is reachable\n");
  }
}
