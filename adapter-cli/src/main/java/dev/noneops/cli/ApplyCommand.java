package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.upgrade.NodeLock;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops apply}: reconfigure a running node in place, restarting only what changed. A
 * configuration that needs other binaries (a new version name) is an upgrade, and is refused here
 * with that advice, changing nothing.
 */
@Command(name = "apply", description = {
    "Reconfigure the node in place: write the configuration, restart only the services whose",
    "configuration changed (containerd first), wait for kubelet, record the applied configuration.",
    "A configuration that needs other binaries is refused: use 'noneops upgrade'."})
public final class ApplyCommand extends CliCommand {
  @Mixin ConfigOption config;
  @Mixin WaitOption waits;

  /** The JSON document of {@code apply --json}. */
  public record ApplyReport(boolean ok, String version, ConfigureResult changed, boolean running, long durationMs) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
      AgentConfig cfg = ctx.readConfig(config.file());
      Node node = ctx.node(Optional.of(cfg), Optional.empty());
      // one hold over the whole sequence: the version checked is the one configured, started and recorded
      try (NodeLock.Hold lock = node.lock().acquire("apply")) {
        String active = node.version().orElseThrow(() -> new CliException(ExitCode.FAILURE,
            "no node is installed on this host (no " + ctx.session().layout().current() + "); run 'noneops bootstrap' first"));
        String wanted = node.goalState().rootFs().versionName();
        if (!wanted.equals(active)) {
          throw new CliException(ExitCode.FAILURE, "this configuration needs version " + wanted + " but " + active
              + " is active: changing binaries is an upgrade, run 'noneops upgrade'; nothing was changed");
        }
        boolean wasRunning = node.running();
        ConfigureResult changes = node.configure();
        node.start(wasRunning, changes);
        ctx.applied().write(cfg);
        ApplyReport report = new ApplyReport(true, active, changes, node.running(), millisSince(start));
        if (json()) {
          printJson(report);
        } else {
          out().println(changes.anyChanged()
              ? "applied: " + describe(changes) + " changed; " + (wasRunning ? "restarted what changed" : "started the stack")
              : "applied: nothing changed" + (wasRunning ? "" : "; started the stack"));
        }
      }
    }
    return ExitCode.OK;
  }

  static String describe(ConfigureResult c) {
    java.util.List<String> parts = new java.util.ArrayList<>();
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
