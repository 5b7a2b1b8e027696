package dev.noneops.cli;

import dev.noneops.core.node.ResetPlan;
import dev.noneops.core.node.ResetResult;
import dev.noneops.core.node.TeardownAction;
import dev.noneops.core.node.TeardownResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
        "Stop the agent and the stack, remove the configuration the node wrote (putting back files that were there before it), the applied configuration, then its units, versions, container shims, pod cgroups, mounts and data directories. Reports everything removed and everything kept (and why); exits 1 when something blocks. Asks first on a terminal; refuses without --yes when stdin is not one. --dry-run prints what it would remove and changes nothing.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops reset --dry-run",
      "  noneops reset",
      "  noneops reset --yes",
      "  noneops --json reset --yes | jq .report.kept"
    })
public final class ResetCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Mixin
  YesOption yes;

  @Option(
      names = "--dry-run",
      description = "Print what a reset would stop, remove and put back; change nothing.")
  boolean dryRun;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  /** The JSON document of {@code reset --dry-run --json}. */
  public record ResetPlanReport(boolean present, List<TeardownResult.Removed> wouldRemove) {}

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
    if (dryRun) {
      return dryRun();
    }
    requireRoot();
    confirm(yes, "Remove the node and everything it installed from this host?");
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

  /** What a reset would do, read as root (the node's records are root's) and changing nothing. */
  private ExitCode dryRun() throws Exception {
    if (!environment().privileged().getAsBoolean()) {
      throw new CliException(
          ExitCode.NOT_ROOT,
          "'noneops reset --dry-run' reads the node's records, which only root can read (try"
              + " sudo); nothing was changed");
    }
    try (NodeContext ctx = openNode()) {
      ResetPlan plan = ctx.node(Optional.empty(), Optional.empty()).resetPlan();
      if (json()) {
        printJson(new ResetPlanReport(plan.present(), plan.steps()));
        return ExitCode.OK;
      }
      if (!plan.present()) {
        out().println("no node on this host");
      }
      plan.steps()
          .forEach(s -> out()
              .println("would " + verb(s.action()) + " " + s.subject()
                  + (s.detail().isEmpty() ? "" : " (" + s.detail() + ")")));
      out()
          .println(
              plan.steps().isEmpty()
                  ? "nothing to reset; nothing was changed"
                  : "dry run: nothing was changed; 'noneops reset' does the above");
      return ExitCode.OK;
    }
  }

  private static String verb(TeardownAction action) {
    return switch (action) {
      case UNIT_STOPPED -> "stop";
      case SHIM_KILLED, CGROUP_KILLED -> "end";
      case ORIGINAL_RESTORED -> "restore";
      case UNMOUNTED -> "unmount";
      default -> "remove";
    };
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
