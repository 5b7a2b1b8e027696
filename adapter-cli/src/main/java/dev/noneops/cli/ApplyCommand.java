package dev.noneops.cli;

import dev.noneops.core.node.Node.ApplyResult;
import dev.noneops.core.node.Node.ConfigureResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops apply}: reconfigure a running node in place, restarting only what changed. A
 * configuration that needs other binaries (a new version name) is an upgrade, and is refused here
 * with that advice, changing nothing.
 */
@Command(
    name = "apply",
    header = "Reconfigure the running node in place",
    description =
        "Write the configuration, restart only the services whose configuration changed (containerd first), wait for kubelet, and record the applied configuration. A configuration that needs other binaries is refused: use 'noneops upgrade'.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops apply --config /etc/unbounded/agent/config.json",
      "  noneops plan --config /etc/unbounded/agent/config.json   # see first what it would change"
    })
public final class ApplyCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  @Mixin
  ConfigOption config;

  @Mixin
  WaitOption waits;

  /** The JSON document of {@code apply --json}. */
  public record ApplyReport(
      boolean ok, String version, ConfigureResult changed, boolean running, long durationMs) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
      ApplyResult result =
          ctx.node(Optional.of(ctx.readConfig(config.file())), Optional.empty()).apply();
      ApplyReport report = new ApplyReport(
          true, result.version(), result.changes(), result.running(), millisSince(start));
      if (json()) {
        printJson(report);
      } else {
        out().println(summary(result));
      }
    }
    return ExitCode.OK;
  }

  /** The line {@code apply} prints: what changed, and what it restarted or started. */
  static String summary(ApplyResult result) {
    ConfigureResult changes = result.changes();
    return changes.anyChanged()
        ? "applied: " + describe(changes) + " changed; "
            + (result.wasRunning() ? "restarted what changed" : "started the stack")
        : "applied: nothing changed" + (result.wasRunning() ? "" : "; started the stack");
  }

  static String describe(ConfigureResult c) {
    List<String> parts = new ArrayList<>();
    if (c.localDnsChanged()) {
      parts.add("LocalDNS");
    }
    if (c.containerdChanged()) {
      parts.add("containerd");
    }
    if (c.kubeletChanged()) {
      parts.add("kubelet");
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }
}
