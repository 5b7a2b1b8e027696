package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.CliEnvironment;
import dev.noneops.cli.NoneopsCli;
import dev.noneops.cli.output.LiveProgress;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command's progress goes to the terminal when stderr is one, and is given back before the
 * result; with {@code --json} or {@code -v} it stays lines on stderr.
 */
class LiveProgressOnSimulatedHostTest {
  private final SimCli cli = new SimCli(SimulatedHost.create());
  private final List<String> drawn = new ArrayList<>();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private int opened;
  private String outWhenClosed;

  @Test
  void onATerminalTheBootstrapsPhasesAndDownloadsAreDrawnAndTheTerminalGivenBackBeforeTheResult() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    assertThat(run("bootstrap")).isZero();

    assertThat(opened).isEqualTo(1);
    assertThat(drawn)
        .contains("STARTED bootstrap", "COMPLETED bootstrap")
        .anyMatch(e -> e.startsWith("PROGRESS download-kubelet"));
    assertThat(outWhenClosed)
        .as("nothing printed while the terminal was drawn on")
        .isEmpty();
    assertThat(out.toString()).startsWith("bootstrapped version ");
    assertThat(err.toString()).as("no plain progress besides").doesNotContain("  ... ");
  }

  @Test
  void withJsonOrVerboseTheProgressIsLinesAndNoTerminalIsOpened() {
    cli.configure(SimCli.CONFIG, ConfigJson.of("1.31.4").json());

    assertThat(run("--json", "bootstrap")).isZero();
    assertThat(run("-v", "apply")).isZero();

    assertThat(opened).isZero();
    assertThat(err.toString()).contains("{\"at\":").contains("  ... ");
  }

  private int run(String... args) {
    CliEnvironment simulated = cli.environment();
    CliEnvironment onATerminal = new CliEnvironment(
        simulated.host(),
        simulated.privileged(),
        simulated.buildVersion(),
        simulated.agent(),
        () -> {
          opened++;
          return Optional.of(new LiveProgress() {
            @Override
            public void onEvent(NodeEvent event) {
              drawn.add(event.kind() + " " + event.task());
            }

            @Override
            public void close() {
              outWhenClosed = out.toString();
            }
          });
        });
    CommandLine command = NoneopsCli.commandLine(onATerminal, args);
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }
}
