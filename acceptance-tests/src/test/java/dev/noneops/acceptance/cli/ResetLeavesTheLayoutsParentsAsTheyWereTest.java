package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The directories bootstrap created to hold the layout go with it; those that were there stay. */
class ResetLeavesTheLayoutsParentsAsTheyWereTest {

  @Test
  void theParentsBootstrapCreatedAreRemovedAndThoseThatWereThereStay() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    SimCli cli = new SimCli(host);
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());
    assertThat(host.fs().lstat(Path.of("/opt/unbounded"))).isEmpty();
    boolean optWasThere = host.fs().lstat(Path.of("/opt")).isPresent();

    assertThat(cli.run("bootstrap").exitCode()).isZero();
    assertThat(cli.run("reset", "--yes").exitCode()).isZero();

    assertThat(host.fs().lstat(Path.of("/opt/unbounded")))
        .as("created by bootstrap, empty after reset")
        .isEmpty();
    assertThat(host.fs().lstat(Path.of("/opt")).isPresent()).isEqualTo(optWasThere);
  }

  @Test
  void aParentThatWasThereBeforeStays() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    host.fs().seedDirectory(Path.of("/opt/unbounded"), 0755);
    SimCli cli = new SimCli(host);
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    cli.run("bootstrap");
    cli.run("reset", "--yes");

    assertThat(host.fs().lstat(Path.of("/opt/unbounded"))).isPresent();
  }
}
