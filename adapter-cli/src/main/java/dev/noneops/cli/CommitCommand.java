package dev.noneops.cli;

import dev.noneops.core.node.JournaledUpgrade;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops commit}: ends a successful upgrade whose configuration the caller recorded —
 * drops the saved configuration, then the journal. For agents that run the steps one by one;
 * {@code noneops upgrade} commits by itself.
 */
@Command(
    name = "commit",
    header = "End an upgrade whose configuration is recorded",
    description =
        "Drop the saved configuration, then the upgrade journal. 'noneops upgrade' does this itself; a no-op when no upgrade is in flight.",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops commit"})
public final class CommitCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  @Override
  protected Duration lockTimeout() {
    return lock.timeout();
  }

  /** The JSON document of {@code commit --json}. */
  public record CommitReport(
      boolean ok, boolean committed, String previousVersion, String targetVersion) {}

  @Override
  protected ExitCode execute() throws Exception {
    requireRoot();
    try (NodeContext ctx = openNode()) {
      Optional<JournaledUpgrade> done =
          ctx.node(Optional.empty(), Optional.empty()).commit();
      CommitReport report = new CommitReport(
          true,
          done.isPresent(),
          done.map(JournaledUpgrade::previousVersion).orElse(null),
          done.map(JournaledUpgrade::targetVersion).orElse(null));
      if (json()) {
        printJson(report);
      } else {
        out()
            .println(
                done.isPresent()
                    ? "committed the upgrade " + report.previousVersion() + " -> "
                        + report.targetVersion()
                    : "no upgrade in flight; nothing to commit");
      }
      return ExitCode.OK;
    }
  }
}
