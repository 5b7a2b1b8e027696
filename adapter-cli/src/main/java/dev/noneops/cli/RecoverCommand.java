package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.RecoveryResult;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops recover}: finishes an upgrade a crash interrupted, from the applied config —
 * commits it when it had finished and been recorded, rolls it back otherwise — and removes what
 * other interrupted operations left (temp files, staging, a version a prune was removing). Safe
 * to run at any time (a no-op without an upgrade in flight) and to run again after a crash
 * during recovery.
 */
@Command(
    name = "recover",
    description = {
      "Finish an upgrade a crash interrupted: commit it when it had finished and its configuration",
      "was recorded, otherwise roll back to the version the journal recorded. A no-op when no",
      "upgrade is in flight; safe to repeat."
    })
public final class RecoverCommand extends CliCommand {
  @Mixin
  WaitOption waits;

  @Mixin
  ConfigOption config;

  /** The JSON document of {@code recover --json}. */
  public record RecoverReport(
      boolean ok,
      String outcome,
      String previousVersion,
      String targetVersion,
      String activeVersion,
      List<String> staleRemoved,
      String startError,
      long durationMs) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    long start = now();
    try (NodeContext ctx = openNode().kubeletTimeout(waits.kubeletTimeout())) {
      if (ctx.applied().read().isEmpty() && !ctx.teardown().present()) {
        return nothingToRecover(start);
      }
      AgentConfig applied = ctx.applied()
          .read()
          .orElseThrow(() -> new CliException(
              ExitCode.FAILURE,
              "no applied configuration at " + ctx.applied().path()
                  + ": recovery needs the configuration the node ran"));
      Node node = ctx.node(Optional.of(applied), Optional.of(applied));
      RecoveryResult r = node.recoverUpgrade(applied);
      RecoverReport report = new RecoverReport(
          r.startError().isEmpty(),
          r.outcome().name(),
          r.upgrade().map(u -> u.previousVersion()).orElse(null),
          r.upgrade().map(u -> u.targetVersion()).orElse(null),
          node.version().orElse(null),
          r.staleRemoved().stream().map(Object::toString).toList(),
          r.startError().orElse(null),
          millisSince(start));
      if (json()) {
        printJson(report);
      } else {
        printText(r, report);
      }
      return r.startError().isEmpty() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }

  private ExitCode nothingToRecover(long start) {
    if (json()) {
      printJson(new RecoverReport(
          true,
          RecoveryResult.Outcome.NOTHING_TO_DO.name(),
          null,
          null,
          null,
          List.of(),
          null,
          millisSince(start)));
    } else {
      out().println("no node on this host; nothing to recover");
    }
    return ExitCode.OK;
  }

  private void printText(RecoveryResult r, RecoverReport report) {
    out()
        .println(switch (r.outcome()) {
              case NOTHING_TO_DO -> "no upgrade in flight; nothing to recover";
              case COMMITTED ->
                "the interrupted upgrade to " + report.targetVersion() + " had finished: committed";
              case ROLLED_BACK ->
                "the interrupted upgrade to " + report.targetVersion() + " was rolled back to "
                    + report.previousVersion();
              case ROLLBACK_FINISHED ->
                "the rollback to " + report.previousVersion() + " was already done: cleaned up";
            }
            + "; active version " + report.activeVersion());
    if (!r.staleRemoved().isEmpty()) {
      out()
          .println("removed what interrupted operations left: "
              + String.join(", ", report.staleRemoved()));
    }
    r.startError().ifPresent(e -> out().println("but the stack did not start: " + e));
  }
}
