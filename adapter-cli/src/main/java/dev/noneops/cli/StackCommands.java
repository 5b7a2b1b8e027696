package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code start}, {@code stop} and {@code restart}: the node's stack as a whole. */
final class StackCommands {
  private StackCommands() {}

  /** The JSON document of the three commands. */
  public record StackReport(
      boolean ok, String action, String version, boolean running, long durationMs) {}

  /**
   * The configuration the installed node runs: the applied config, else {@code --config}, so
   * these commands work after a bootstrap with no flag.
   */
  static AgentConfig installedConfig(NodeContext ctx, ConfigOption config) throws IOException {
    Optional<AgentConfig> applied = ctx.applied().read();
    return applied.isPresent() ? applied.get() : ctx.readConfig(config.file());
  }

  static ExitCode report(CliCommand cmd, String action, Node node, long start) {
    StackReport report = new StackReport(
        true, action, node.version().orElse(""), node.running(), CliCommand.millisSince(start));
    if (cmd.json()) {
      cmd.printJson(report);
    } else {
      cmd.out()
          .println(action + " in " + BootstrapCommand.seconds(report.durationMs())
              + "; the stack is " + (report.running() ? "running" : "stopped")
              + (report.version().isEmpty() ? "" : " (version " + report.version() + ")"));
    }
    return ExitCode.OK;
  }

  /** {@code noneops start}. */
  @Command(
      name = "start",
      header = "Start the stack and wait for kubelet",
      description =
          "LocalDNS, containerd, kubelet, from the applied configuration; --config only when none was recorded.",
      footerHeading = "%nExamples:%n",
      footer = {"  noneops start"})
  public static final class StartCommand extends CliCommand {
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

    @Override
    protected ExitCode execute() throws Exception {
      requireRoot();
      long start = now();
      try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
        Node node = ctx.node(Optional.of(installedConfig(ctx, config)), Optional.empty());
        node.start(node.running(), new ConfigureResult(false, false, false));
        return report(this, "started", node, start);
      }
    }
  }

  /** {@code noneops stop}. */
  @Command(
      name = "stop",
      header = "Stop kubelet, containerd and LocalDNS",
      description = "Only units that carry the node's marker are stopped. Needs no configuration.",
      footerHeading = "%nExamples:%n",
      footer = {"  noneops stop"})
  public static final class StopCommand extends CliCommand {
    @Mixin
    LockTimeoutOption lock;

    @Override
    protected Duration lockTimeout() {
      return lock.timeout();
    }

    @Override
    protected ExitCode execute() throws Exception {
      requireRoot();
      long start = now();
      try (NodeContext ctx = openNode()) {
        Node node = ctx.node(Optional.empty(), Optional.empty());
        node.stop();
        return report(this, "stopped", node, start);
      }
    }
  }

  /** {@code noneops restart}. */
  @Command(
      name = "restart",
      header = "Restart the stack (the host is not rebooted)",
      description =
          "LocalDNS (waiting until it answers), containerd, then kubelet (waiting until it is active).",
      footerHeading = "%nExamples:%n",
      footer = {"  noneops restart"})
  public static final class RestartCommand extends CliCommand {
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

    @Override
    protected ExitCode execute() throws Exception {
      requireRoot();
      long start = now();
      try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
        Node node = ctx.node(Optional.of(installedConfig(ctx, config)), Optional.empty());
        node.restart();
        return report(this, "restarted", node, start);
      }
    }
  }
}
