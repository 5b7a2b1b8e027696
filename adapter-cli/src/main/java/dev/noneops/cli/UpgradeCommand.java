package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.PruneResult;
import dev.noneops.core.node.ReadinessGate;
import dev.noneops.core.node.UpgradeAndCommitResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeOptions;
import dev.noneops.core.node.UpgradeResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code noneops upgrade}: the whole upgrade an operator runs on a drained node — install the new
 * version beside the active one, switch over (rolling back automatically when it does not come
 * up), record the applied configuration, commit, and prune the old version.
 */
@Command(
    name = "upgrade",
    header = "Upgrade to the configured version, with rollback",
    description =
        "Install the version beside the active one, switch over and wait for kubelet; on failure roll back automatically to the previous version and its configuration (exit 6). On success record the applied configuration, commit, and prune old versions. Drain the node first.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops upgrade --config /etc/unbounded/agent/config.json",
      "  noneops upgrade --config new.json --kubelet-timeout 5m",
      "  noneops upgrade --config new.json --force   # retry a target that rolled back"
    })
public final class UpgradeCommand extends CliCommand {
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

  @Option(
      names = "--no-prune",
      description = "Keep the previous version installed after a successful upgrade.")
  boolean noPrune;

  @Option(
      names = "--ignore-version-skew",
      description = "Upgrade to a kubelet the version skew policy refuses (newer than the API"
          + " server, or more than three minor versions older), for a disconnected install.")
  boolean ignoreVersionSkew;

  @Option(
      names = "--cluster-ready-timeout",
      paramLabel = "DURATION",
      converter = WaitOption.DurationConverter.class,
      description = "How long the Node may take to be Ready in the cluster after the switch,"
          + " with kubelet's credentials, e.g. 5m (default: 5m).")
  Duration clusterReadyTimeout;

  @Option(
      names = "--force",
      description = "Retry an upgrade to a version and configuration that was rolled back before.")
  boolean force;

  /**
   * The JSON document of {@code upgrade --json}; {@code disowned} lists the shared paths this
   * upgrade found replaced by something else and stopped owning.
   */
  public record UpgradeReport(
      boolean ok,
      String previousVersion,
      String targetVersion,
      boolean versionChanged,
      PruneResult pruned,
      long durationMs,
      List<String> disowned,
      Gate gate) {}

  /**
   * The readiness gate the target passed: {@code healthz} (kubelet's healthz alone) or {@code
   * cluster} (healthz and the Node Ready in the cluster), and why or how, in words.
   */
  public record Gate(String kind, String detail) {
    static Gate of(ReadinessGate gate) {
      return new Gate(gate.kind().name().toLowerCase(Locale.ROOT), gate.detail());
    }
  }

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode()
        .kubeletTimeout(waits.kubeletTimeout())
        .cluster(new NodeContext.ClusterOptions(
            Optional.ofNullable(clusterReadyTimeout), ignoreVersionSkew))) {
      AgentConfig cfg = readFollowedConfig(ctx, config.file());
      AgentConfig previous = ctx.applied()
          .read()
          .orElseThrow(
              () -> new CliException(
                  ExitCode.FAILURE,
                  "no applied configuration at " + ctx.applied().path()
                      + ": an upgrade starts from a bootstrapped node (run 'noneops bootstrap'); nothing was changed"));
      UpgradeAndCommitResult done;
      try {
        done = ctx.node(Optional.of(cfg), Optional.of(previous))
            .upgradeAndCommit(new UpgradeOptions(force, !noPrune));
      } catch (UpgradeFailedException e) {
        ctx.reportRollback(e);
        throw e;
      }
      UpgradeResult result = done.upgrade();
      UpgradeReport report = new UpgradeReport(
          true,
          result.previousVersion(),
          result.targetVersion(),
          result.versionChanged(),
          done.pruned().orElse(null),
          millisSince(start),
          result.disowned().stream().map(Path::toString).toList(),
          Gate.of(result.gate()));
      if (json()) {
        printJson(report);
      } else {
        out()
            .println((result.versionChanged()
                    ? "upgraded " + result.previousVersion() + " -> " + result.targetVersion()
                    : "reconfigured " + result.targetVersion() + " (same binaries)")
                + " in " + BootstrapCommand.seconds(report.durationMs()));
        out()
            .println(
                "readiness gate: " + report.gate().kind() + " (" + report.gate().detail() + ")");
        ApplyCommand.printDisowned(out(), result.disowned());
        done.pruned().ifPresent(pruned -> PruneCommand.printText(out(), pruned));
      }
    }
    return ExitCode.OK;
  }
}
