package dev.noneops.cli;

import dev.noneops.core.node.ApplyResult;
import dev.noneops.core.node.ConfigureResult;
import java.io.PrintWriter;
import java.nio.file.Path;
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
        "Write the configuration, restart each running service whose configuration changed (kubelet after containerd), start each service that is not running, wait for kubelet, and record the applied configuration once every service runs it. A service that ran is not left stopped. A configuration that needs other binaries is refused: use 'noneops upgrade'.",
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

  /**
   * The JSON document of {@code apply --json}: {@code restarted} and {@code started} name the
   * units restarted and started, {@code running} whether the whole stack runs, {@code disowned}
   * the shared paths this apply found replaced by something else and stopped owning.
   */
  public record ApplyReport(
      boolean ok,
      String version,
      ConfigureResult changed,
      List<String> restarted,
      List<String> started,
      boolean running,
      long durationMs,
      List<String> disowned) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
      ApplyResult result = ctx.node(
              Optional.of(readFollowedConfig(ctx, config.file())), Optional.empty())
          .apply();
      ApplyReport report = new ApplyReport(
          true,
          result.version(),
          result.changes(),
          result.restarted(),
          result.started(),
          result.running(),
          millisSince(start),
          result.disowned().stream().map(Path::toString).toList());
      if (json()) {
        printJson(report);
      } else {
        out().println(summary(result));
        printDisowned(out(), result.disowned());
      }
    }
    return ExitCode.OK;
  }

  /**
   * The line {@code apply} prints: what changed, the units it restarted and the units it started,
   * e.g. {@code applied: kubelet changed; restarted kubelet.service; started localdns.service}.
   */
  static String summary(ApplyResult result) {
    ConfigureResult changes = result.changes();
    StringBuilder line = new StringBuilder("applied: ")
        .append(changes.anyChanged() ? describe(changes) : "nothing")
        .append(" changed");
    if (!result.restarted().isEmpty()) {
      line.append("; restarted ").append(String.join(", ", result.restarted()));
    }
    if (!result.started().isEmpty()) {
      line.append("; started ").append(String.join(", ", result.started()));
    }
    return line.toString();
  }

  /** One line per path the operation stopped owning, said once: the operation that disowned it. */
  static void printDisowned(PrintWriter out, List<Path> disowned) {
    disowned.forEach(p -> out.println("no longer owned: " + p
        + " (something else replaced the node's link there; it is left as it is)"));
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
