package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.atIndex;

import dev.noneops.cli.ExitCode;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What an operator reads on stderr for each kind of failure, pinned line by line: one line naming
 * what failed (and for a node's failure where, and what state the node is in now), with its exit
 * code; the chain and causes only under {@code -v}.
 */
class OperatorErrorLinesTest {
  private static final Path CONFIG = SimCli.CONFIG;
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void anUnknownCommandIsNamedWithTheClosestCommands() {
    Run run = cli.run("statsu");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.err())
        .isEqualTo("noneops: unknown command 'statsu'; did you mean 'status' or 'start'?\n"
            + "Try 'noneops --help' for the options and exit codes.\n");
  }

  @Test
  void anUnknownCommandFarFromEveryCommandIsNamedWithoutAGuess() {
    Run run = cli.run("frobnicate");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.err())
        .isEqualTo("noneops: unknown command 'frobnicate'\n"
            + "Try 'noneops --help' for the options and exit codes.\n");
  }

  @Test
  void helpAsACommandPrintsTheHelpOfTheCommandItNames() {
    Run root = cli.run("help");
    Run status = cli.run("help", "status");

    assertThat(root.exitCode()).as(root.err()).isZero();
    assertThat(root.out()).isEqualTo(cli.run("--help").out());
    assertThat(status.exitCode()).as(status.err()).isZero();
    assertThat(status.out()).isEqualTo(cli.run("status", "--help").out());
  }

  @Test
  void anUnknownOptionIsNamedWithTheClosestOption() {
    Run run = cli.run("status", "--jsno");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.err())
        .isEqualTo("noneops status: unknown option '--jsno'; did you mean '--json'?\n"
            + "Try 'noneops status --help' for the options and exit codes.\n");
  }

  @Test
  void aMissingConfigurationFileIsItsOwnErrorNotAnInvalidConfiguration() {
    Run run = cli.run("bootstrap", "--config", "/etc/nowhere.json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.err())
        .isEqualTo(
            "noneops bootstrap: cannot read the configuration file /etc/nowhere.json: no such"
                + " file (pass --config FILE); nothing was changed\n");
  }

  @Test
  void anInvalidConfigurationListsEveryViolationOnOneLine() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.host()
        .ports()
        .files()
        .writeDurably(
            CONFIG, BASE.json().replace("\"https://api.example.com:6443\"", "\"ftp://api\""), 0600);

    Run run = cli.run("bootstrap");

    assertThat(run.exitCode()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.err().lines())
        .singleElement()
        .satisfies(line -> assertThat(line)
            .startsWith("noneops bootstrap: invalid agent configuration (1 violation)")
            .contains("Kubelet.ApiServer"));
  }

  @Test
  void aMutatingCommandWithoutRootSaysSoAndThatNothingChanged() {
    cli.configure(CONFIG, BASE.json());

    Run run = cli.asRoot(false).run("bootstrap");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ROOT.code());
    assertThat(run.err().lines())
        .singleElement()
        .satisfies(line -> assertThat(line)
            .startsWith("noneops bootstrap: ")
            .contains("must run as root")
            .contains("nothing was changed"));
  }

  @Test
  void aBusyNodeSaysWhoHoldsItAndToRetry() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());

    try (HostLock held = cli.host().ports().files().tryLock(cli.layout().lock()).orElseThrow()) {
      Run run = cli.run("upgrade");

      assertThat(run.exitCode()).isEqualTo(ExitCode.BUSY.code());
      assertThat(run.err().lines())
          .as("the line that it waits, then the one that it gave up")
          .hasSize(2)
          .satisfies(
              line -> assertThat(line)
                  .startsWith("noneops upgrade: waiting up to 60s for the node lock ")
                  .contains(cli.layout().lock().toString()),
              atIndex(0))
          .satisfies(
              line -> assertThat(line)
                  .startsWith("noneops upgrade: node busy: ")
                  .contains(cli.layout().lock().toString())
                  .contains("(waited 60s)")
                  .contains("nothing was changed, retry when it has finished"),
              atIndex(1));
    }
  }

  @Test
  void aRolledBackUpgradeIsOneLineWithWhereItFailedAndWhatRunsNow() {
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String broken = cli.configure(CONFIG, BASE.withKubernetes("1.31.5").json());
    cli.kubeletNeverReady(broken);

    Run run = cli.run("upgrade", "--kubelet-timeout", "20s");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ROLLED_BACK.code());
    assertThat(run.err().lines().filter(l -> l.startsWith("noneops upgrade:")))
        .singleElement()
        .isEqualTo("noneops upgrade: " + v1 + " → " + broken + " failed at upgrade-start-target"
            + " › start › wait-kubelet: kubelet.service did not become ready in 20 s (active;"
            + " healthz at http://127.0.0.1:10248/healthz not answering); rolled back: " + v1
            + " runs again with its configuration");
  }

  @Test
  void aFailedCheckExitsUnhealthyAndListsItsProblemsOnStdout() {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.run("stop");

    Run run = cli.run("allocation-launch-check");

    assertThat(run.exitCode()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).startsWith("unhealthy:\n").contains("kubelet.service");
  }
}
