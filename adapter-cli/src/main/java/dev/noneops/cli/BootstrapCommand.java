package dev.noneops.cli;

import dev.noneops.cli.output.ProgressPrinter;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.BootstrapResult;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.PreflightReport.Check;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code noneops bootstrap}: the first install of a node on this host — kernel modules and
 * sysctls, the version's binaries, units, configuration, start, wait for kubelet, and the applied
 * config persisted last, after the preflight checks, a failed one of which stops it changing nothing
 * (a host with a kubelet or containerd of its own among them).
 */
@Command(
    name = "bootstrap",
    header = "Install and start the node on this host",
    description =
        "Run the preflight checks (see 'noneops preflight'; a failed one stops it, changing nothing, a warning does not), load the kernel modules and sysctls, download and verify the version, install this build as the node's agent (its recovery gate at boot and its daemon), write the units and configuration, start LocalDNS, containerd and kubelet, wait for kubelet, then record the applied configuration. A host with a kubelet or containerd of its own fails the preflight.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops bootstrap --config /etc/unbounded/agent/config.json",
      "  noneops bootstrap --config /etc/unbounded/agent/config.json --kubelet-timeout 5m",
      "  noneops --json bootstrap --config /etc/unbounded/agent/config.json"
    })
public final class BootstrapCommand extends CliCommand {
  @Option(
      names = "--ignore-version-skew",
      description = "Warn of, rather than refuse, a kubelet the version skew policy refuses (newer"
          + " than the API server, or more than three minor versions older).")
  boolean ignoreVersionSkew;

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
      names = "--no-kernel-modules",
      description =
          "Leave the kernel alone, now and at the next boot: no kernel module listed for boot or loaded, no sysctl preset written or applied (a later apply or upgrade writes none either). For a host whose kernel is not this node's to change (a sandbox, a container). kubelet runs with --protect-kernel-defaults, so the host must have the sysctls the preflight names in force; pod networking may need overlay and br_netfilter.")
  boolean noKernelModules;

  @Option(
      names = "--no-agent",
      description =
          "Do not install this build as the node's agent (its recovery gate at boot and its daemon): for an embedder that runs its own agent. After a power cut, nothing then recovers the node before its stack starts.")
  boolean noAgent;

  /**
   * The JSON document of {@code bootstrap --json}; {@code warnings} are the preflight checks that
   * warned, as {@code preflight --json} gives them.
   */
  public record BootstrapReport(
      boolean ok,
      String version,
      ConfigureResult changed,
      boolean running,
      long durationMs,
      List<PreflightCommand.CheckReport> warnings) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode()
        .kubeletTimeout(waits.kubeletTimeout())
        .cluster(new NodeContext.ClusterOptions(Optional.empty(), ignoreVersionSkew))) {
      AgentConfig cfg = noAgent
          ? readFollowedConfig(ctx, config.file())
          : ctx.readConfig(config.file()); // check-agent-files judges it before anything changes
      Optional<AgentSetup> agent =
          noAgent ? Optional.empty() : environment().agent().forConfig(config.file());
      BootstrapResult result =
          ctx.node(Optional.of(cfg), Optional.empty(), agent).bootstrap(!noKernelModules);
      BootstrapReport report = new BootstrapReport(
          true,
          result.version(),
          result.changed(),
          result.running(),
          millisSince(start),
          result.warnings().stream().map(PreflightCommand.CheckReport::of).toList());
      if (json()) {
        printJson(report);
      } else {
        // Bootstrap went on past these; they go with the result, as preflight words them.
        for (Check warning : result.warnings()) {
          out()
              .println(
                  "warning: " + warning.name() + ": " + warning.detail() + "; " + warning.remedy());
        }
        out()
            .println(
                "bootstrapped version " + report.version() + " in " + seconds(report.durationMs())
                    + "; the stack is " + (report.running() ? "running" : "NOT running"));
      }
    }
    return ExitCode.OK;
  }

  static String seconds(long ms) {
    return ProgressPrinter.seconds(Duration.ofMillis(ms));
  }
}
