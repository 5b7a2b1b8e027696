package dev.noneops.cli;

import dev.noneops.core.node.ResetResult;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops reset}: removes the node in the reset order — stop, the configuration it wrote
 * at the shared paths (and the applied config), then units, versions, container shims, pod
 * cgroups and mounts, and the data directories — and reports what was removed and what was kept
 * and why. Nothing the node did not write is touched; a subtree still mounted is kept.
 */
@Command(
    name = "reset",
    header = "Remove the node and everything it installed",
    description =
        "Stop the agent and the stack, remove the configuration the node wrote (putting back files that were there before it), the applied configuration, then its units, versions, container shims, pod cgroups, mounts and data directories. Reports everything removed and everything kept (and why); exits 1 when something blocks.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops reset", "  noneops --json reset | jq .report.kept"})
public final class ResetCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  /** The JSON document of {@code reset --json}. */
  public record ResetReport(
      boolean ok,
      boolean wasPresent,
      boolean complete,
      List<TeardownResult.Removed> removed,
      List<TeardownResult.Kept> kept,
      List<String> hostCleanup,
      long durationMs) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode()) {
      ResetResult reset = ctx.node(Optional.empty(), Optional.empty()).reset();
      TeardownResult report = reset.report();
      ResetReport result = new ResetReport(
          reset.complete(),
          reset.wasPresent(),
          reset.complete(),
          report.removed(),
          report.kept(),
          reset.hostCleanup(),
          millisSince(start));
      if (json()) {
        printJson(result);
      } else {
        printText(result, report);
      }
      return reset.complete() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }

  private void printText(ResetReport result, TeardownResult report) {
    if (!result.wasPresent()) {
      report.removed().forEach(r -> out().println("removed " + r));
      report.kept().forEach(k -> out().println("kept    " + k));
      out().println("no node on this host; nothing to reset");
      return;
    }
    report
        .removed()
        .forEach(r -> out()
            .println(
                (r.action() == TeardownAction.ORIGINAL_RESTORED
                    ? "restored " + r.subject() + " (" + r.detail() + ")"
                    : "removed " + r)));
    result.hostCleanup().forEach(c -> out().println("removed " + c));
    report.kept().forEach(k -> out().println("kept    " + k));
    out()
        .println(
            report.complete()
                ? "reset complete in " + BootstrapCommand.seconds(result.durationMs())
                : "reset INCOMPLETE: " + report.blocking().size()
                    + " item(s) block it; see 'kept' above");
  }
}
