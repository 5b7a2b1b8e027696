package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.cli.output.ProgressPrinter;
import dev.noneops.core.config.InvalidConfigException;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.ports.events.NodeEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class OutputAndOptionsTest {
  private final ErrorReporter errors = new ErrorReporter();

  @Test
  void failuresMapToTheirExitCodes() {
    assertThat(
            errors.exitCodeOf(new InvalidConfigException(List.of(new ConfigViolation("$", "bad")))))
        .isEqualTo(ExitCode.INVALID_CONFIG);
    assertThat(errors.exitCodeOf(
            new NodeBusyException(Path.of("/opt/unbounded/node/.lock"), "upgrade")))
        .isEqualTo(ExitCode.BUSY);
    assertThat(errors.exitCodeOf(new UpgradeFailedException(
            "a", "b", new RuntimeException("x"), RollbackOutcome.ROLLED_BACK, null)))
        .isEqualTo(ExitCode.ROLLED_BACK);
    assertThat(errors.exitCodeOf(new UpgradeFailedException(
            "a", "b", new RuntimeException("x"), RollbackOutcome.ROLLBACK_FAILED, null)))
        .isEqualTo(ExitCode.FAILURE);
    assertThat(errors.exitCodeOf(new CliException(ExitCode.NOT_ROOT, "root")))
        .isEqualTo(ExitCode.NOT_ROOT);
    assertThat(errors.exitCodeOf(new IllegalStateException("boom"))).isEqualTo(ExitCode.FAILURE);
  }

  @Test
  void aMultiLineMessageBecomesOneLineListingEveryViolation() {
    InvalidConfigException e = new InvalidConfigException(List.of(
        new ConfigViolation("Kubelet.ApiServer", "must be https"),
        new ConfigViolation("Cluster.Version", "not semver")));

    String line = ErrorReporter.oneLine(e);

    assertThat(line)
        .doesNotContain("\n")
        .contains("Kubelet.ApiServer: must be https")
        .contains("Cluster.Version: not semver");
  }

  @Test
  void durationsAcceptUnitsAndIso8601AndRejectTheRest() {
    WaitOption.DurationConverter c = new WaitOption.DurationConverter();
    assertThat(c.convert("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(c.convert("PT2M")).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> c.convert("90"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("no unit");
    assertThatThrownBy(() -> c.convert("0s"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> c.convert("soon")).isInstanceOf(TypeConversionException.class);
  }

  @Test
  void progressShowsPhasesWithDurationsAndDownloadsWithTheirRate() {
    StringWriter err = new StringWriter();
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(err, true), false);
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    p.onEvent(new NodeEvent(
        t0,
        "download-containerd",
        NodeEvent.Kind.STARTED,
        Duration.ZERO,
        Optional.empty(),
        Map.of()));
    p.onEvent(new NodeEvent(
        t0,
        "download-containerd",
        NodeEvent.Kind.PROGRESS,
        Duration.ZERO,
        Optional.empty(),
        Map.of("received", "0", "total", "20971520")));
    p.onEvent(new NodeEvent(
        t0.plusSeconds(2),
        "download-containerd",
        NodeEvent.Kind.PROGRESS,
        Duration.ZERO,
        Optional.empty(),
        Map.of("received", "20971520", "total", "20971520")));
    p.onEvent(new NodeEvent(
        t0.plusSeconds(2),
        "download-containerd",
        NodeEvent.Kind.COMPLETED,
        Duration.ofSeconds(2),
        Optional.empty(),
        Map.of()));
    p.onEvent(new NodeEvent(
        t0.plusSeconds(2),
        "start",
        NodeEvent.Kind.FAILED,
        Duration.ofMillis(1500),
        Optional.of("kubelet not ready"),
        Map.of()));

    assertThat(err.toString())
        .contains("20.0 MiB / 20.0 MiB at 10.0 MiB/s")
        .contains("ok  download-containerd (2.00 s)")
        .contains("FAIL start (1.50 s): kubelet not ready");
  }

  @Test
  void aFailureIsOneFailLineAndTheStepsAroundItEndNamingTheStepThatFailed() {
    StringWriter err = new StringWriter();
    ProgressPrinter p = new ProgressPrinter(new PrintWriter(err, true), false);
    Map<String, String> where =
        Map.of("failedAt", "start › wait-kubelet", "failedTask", "wait-kubelet");
    p.onEvent(new NodeEvent(
        Instant.EPOCH,
        "wait-kubelet",
        NodeEvent.Kind.FAILED,
        Duration.ofSeconds(20),
        Optional.of("kubelet.service did not become ready in 20 s"),
        Map.of("failedAt", "start › wait-kubelet")));
    p.onEvent(new NodeEvent(
        Instant.EPOCH,
        "start",
        NodeEvent.Kind.ABORTED,
        Duration.ofSeconds(20),
        Optional.empty(),
        where));

    assertThat(err.toString().lines())
        .containsExactly(
            "  FAIL wait-kubelet (20.0 s): kubelet.service did not become ready in 20 s",
            "  end  start (20.0 s): because wait-kubelet failed");
  }

  @Test
  void jsonProgressIsOneEventPerLine() {
    StringWriter err = new StringWriter();
    new ProgressPrinter(new PrintWriter(err, true), true)
        .onEvent(new NodeEvent(
            Instant.EPOCH,
            "prepare",
            NodeEvent.Kind.COMPLETED,
            Duration.ofMillis(42),
            Optional.empty(),
            Map.of()));

    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .isEqualTo(
            "{\"at\":\"1970-01-01T00:00:00Z\",\"durationMs\":42,\"kind\":\"COMPLETED\",\"task\":\"prepare\"}");
  }

  @Test
  void helpListsEveryOperatorCommand() {
    CliRun run = CliRun.of(
        new CliEnvironment(
            () -> {
              throw new AssertionError("no host");
            },
            () -> false,
            "t"),
        "--help");

    for (String command : List.of(
        "bootstrap",
        "apply",
        "upgrade",
        "recover",
        "commit",
        "prune",
        "start",
        "stop",
        "restart",
        "status",
        "versions",
        "verify",
        "plan",
        "reset",
        "present",
        "allocation-launch-check",
        "version-for",
        "version",
        "demo",
        "completion")) {
      assertThat(run.out())
          .as(command)
          .containsPattern("(?m)^\\s+" + java.util.regex.Pattern.quote(command) + "\\s");
    }
    assertThat(run.out()).doesNotContain("cds-training").contains("bin/noneops demo");
  }

  @Test
  void aMutatingCommandWithoutRootStopsBeforeTouchingTheHost() {
    CliRun run = CliRun.of(
        new CliEnvironment(
            () -> {
              throw new AssertionError("must not connect");
            },
            () -> false,
            "t"),
        "upgrade");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ROOT.code());
    assertThat(run.err()).contains("must run as root");
  }

  @Test
  void theCliJarsDemoSaysInOneLineWhereTheDemoRuns() {
    CliRun run = CliRun.of(
        new CliEnvironment(
            () -> {
              throw new AssertionError("no host");
            },
            () -> false,
            "t"),
        "demo");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(run.err()).contains("bin/noneops demo");
  }
}
