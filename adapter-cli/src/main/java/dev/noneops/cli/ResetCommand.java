package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.teardown.Teardown;
import dev.noneops.core.teardown.TeardownReport;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.NetworkLink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code noneops reset}: removes the node in the reset order — stop, the configuration it wrote
 * at the shared paths (and the applied config), then units, versions, container shims, pod
 * cgroups and mounts, and the data directories — and reports what was removed and what was kept
 * and why. Nothing the node did not write is touched; a subtree still mounted is kept.
 */
@Command(name = "reset", description = {
    "Remove the node: stop it, remove the configuration it wrote and the applied configuration,",
    "then its units, versions, container shims, pod cgroups, mounts and data directories.",
    "Reports everything removed and everything kept (and why); exits 1 when something blocks."})
public final class ResetCommand extends CliCommand {

  /** The JSON document of {@code reset --json}. */
  public record ResetReport(boolean ok, boolean wasPresent, boolean complete, List<TeardownReport.Removed> removed,
      List<TeardownReport.Kept> kept, List<String> hostCleanup, long durationMs) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode()) {
      Teardown teardown = ctx.teardown();
      boolean present = teardown.present();
      List<String> hostCleanup = new ArrayList<>();
      TeardownReport report = present ? reset(ctx, teardown, hostCleanup) : teardown.removeBootstrapLeftovers();
      ResetReport result = new ResetReport(report.complete(), present, report.complete(), report.removed(), report.kept(), hostCleanup,
          millisSince(start));
      if (json()) {
        printJson(result);
      } else {
        printText(result, report);
      }
      return report.complete() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }

  /**
   * The reset of a node that is there: its stack stopped, its configuration removed, LocalDNS's
   * interface (named in {@code hostCleanup}) and the applied configuration removed, then the rest.
   */
  private static TeardownReport reset(NodeContext ctx, Teardown teardown, List<String> hostCleanup) throws Exception {
    String dnsInterface = ctx.applied().read().map(c -> c.normalized().localDns().interfaceName())
        .orElse(AgentConfig.DEFAULT_LOCALDNS_INTERFACE);
    TeardownReport report = teardown.stop().plus(teardown.removeConfig());
    removeLocalDnsInterface(ctx, dnsInterface).ifPresent(hostCleanup::add);
    ctx.applied().remove();
    return report.plus(teardown.destroy());
  }

  private void printText(ResetReport result, TeardownReport report) {
    if (!result.wasPresent()) {
      report.removed().forEach(r -> out().println("removed " + r));
      report.kept().forEach(k -> out().println("kept    " + k));
      out().println("no node on this host; nothing to reset");
      return;
    }
    report.removed().forEach(r -> out().println((r.action() == TeardownReport.Action.ORIGINAL_RESTORED ? "restored " + r.subject()
        + " (" + r.detail() + ")" : "removed " + r)));
    result.hostCleanup().forEach(c -> out().println("removed " + c));
    report.kept().forEach(k -> out().println("kept    " + k));
    out().println(report.complete() ? "reset complete in " + BootstrapCommand.seconds(result.durationMs())
        : "reset INCOMPLETE: " + report.blocking().size() + " item(s) block it; see 'kept' above");
  }

  /**
   * The host-global part the reset's caller owns: LocalDNS's dummy interface, removed when it
   * exists and is a dummy interface (never another kind of link of that name).
   */
  private static Optional<String> removeLocalDnsInterface(NodeContext ctx, String name) throws IOException {
    HostNetwork network = ctx.ports().network();
    if (!network.link(name).map(NetworkLink::isDummy).orElse(false)) {
      return Optional.empty();
    }
    try {
      network.deleteLink(name);
    } catch (HostIOException e) {
      throw new CliException(ExitCode.FAILURE, "cannot remove the LocalDNS interface " + name + ": " + e.getMessage());
    }
    return Optional.of("LocalDNS interface " + name);
  }
}
