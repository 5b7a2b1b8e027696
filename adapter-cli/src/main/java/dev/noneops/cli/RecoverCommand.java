package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.RootOnlyPath;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.daemon.RecoveryGate;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code noneops recover}: finishes an upgrade a crash interrupted, from the applied config —
 * commits it when it had finished and been recorded, rolls it back otherwise — and removes what
 * other interrupted operations left (temp files, staging, a version a prune was removing). Safe
 * to run at any time (a no-op without an upgrade in flight) and to run again after a crash
 * during recovery.
 */
@Command(
    name = "recover",
    header = "Finish an operation a crash interrupted",
    description =
        "Commit an interrupted upgrade when it had finished and its configuration was recorded, otherwise roll back to the version the journal recorded; remove what interrupted writes left. A no-op when nothing is in flight; safe to repeat. With --at-boot it is the recovery gate that runs before the stack at boot.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops recover",
      "  systemctl status noneops-recover   # the gate's last run at boot"
    })
public final class RecoverCommand extends CliCommand {
  @Mixin
  LockTimeoutOption lock;

  /** The gate never waits: pulled in by a unit an operation starts, it would hold up that very operation. */
  @Override
  protected Duration lockTimeout() {
    return atBoot ? Duration.ZERO : lock.timeout();
  }

  @Mixin
  WaitOption waits;

  @Option(
      names = "--at-boot",
      description =
          "Run as the recovery gate (noneops-recover.service) runs it at boot, before the stack's units: make the node consistent, start nothing. Exits 1 with one line when the node cannot be made consistent; the stack's units, which require the gate, then stay down. On a java a user or group other than root can change it does no recovery work: it passes with nothing in flight, saying why, and exits 1 with an upgrade in flight.")
  boolean atBoot;

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
      if (atBoot) {
        return gate(ctx);
      }
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

  /** The recovery gate: one line on stdout, or the gate's failure (one line on stderr, exit 1). */
  private ExitCode gate(NodeContext ctx) throws IOException {
    RecoveryGate gate = new RecoveryGate(
        ctx.ports().files(),
        ctx.session().layout(),
        ctx.session().paths(),
        ctx.ports().clock(),
        applied -> ctx.node(Optional.of(applied), Optional.of(applied)));
    Optional<WritableByOthersException> untrusted = untrustedJava(ctx);
    RecoveryGate.Result result = untrusted.isPresent() ? gate.refuse(untrusted.get()) : gate.run();
    if (json()) {
      printJson(result);
    } else {
      out().println("noneops recovery gate: " + result.line());
    }
    return ExitCode.OK;
  }

  /** Why the java running the gate is not root's alone, if it is not. */
  private Optional<WritableByOthersException> untrustedJava(NodeContext ctx) throws IOException {
    try {
      new RootOnlyPath(ctx.ports().files())
          .require("the agent's java", environment().agent().java());
      return Optional.empty();
    } catch (WritableByOthersException e) {
      return Optional.of(e);
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
