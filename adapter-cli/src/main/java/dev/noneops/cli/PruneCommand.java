package dev.noneops.cli;

import dev.noneops.core.node.PruneResult;
import dev.noneops.core.node.PruneResult.KeptVersion;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops prune}: removes every installed version except the active one, keeping any that
 * a running process executes from or containerd's task state references, and saying why.
 */
@Command(
    name = "prune",
    header = "Remove the versions nothing uses any more",
    description =
        "Remove every installed version except the active one; a version still in use (a running process executes from it, containerd's tasks reference it) is kept and the reason shown.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops prune", "  noneops versions   # see first what would be kept and why"})
public final class PruneCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  /** The JSON document of {@code prune --json}. */
  public record PruneReport(
      boolean ok,
      List<String> removed,
      List<KeptVersion> kept,
      Map<String, List<String>> leftBehind) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    try (NodeContext ctx = openNode()) {
      PruneResult report = ctx.node(Optional.empty(), Optional.empty()).pruneVersions();
      if (json()) {
        printJson(new PruneReport(
            report.leftBehind().isEmpty(), report.removed(), report.kept(), report.leftBehind()));
      } else {
        printText(out(), report);
      }
      return report.leftBehind().isEmpty() ? ExitCode.OK : ExitCode.FAILURE;
    }
  }

  static void printText(PrintWriter out, PruneResult report) {
    if (report.removed().isEmpty() && report.kept().isEmpty()) {
      out.println("pruned: nothing besides the active version is installed");
    }
    report.removed().forEach(v -> out.println("removed " + v));
    for (KeptVersion k : report.kept()) {
      out.println("kept    " + k.version() + ": " + VersionsCommand.briefly(k.reasons()));
    }
    report
        .leftBehind()
        .forEach((v, why) ->
            out.println("left    " + v + " partly in place: " + String.join("; ", why)));
  }
}
