package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.goalstate.GoalStateResolver;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.install.VersionVerifier;
import dev.noneops.core.upgrade.UpgradeJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops plan}: what applying a configuration would take, changing nothing — the version
 * it needs, whether that is a bootstrap, an in-place apply or an upgrade, what would be
 * downloaded, and whether the configuration differs from the applied one. Per-file differences
 * are not computed.
 */
@Command(name = "plan", description = {
    "Show what the configuration would take, changing nothing: the version it needs, whether",
    "that is a bootstrap, an apply or an upgrade, the downloads, and whether the configuration",
    "differs from the applied one. Per-file differences are not computed."})
public final class PlanCommand extends CliCommand {
  @Mixin ConfigOption config;

  /** One artifact that would be downloaded. */
  public record PlannedDownload(String artifact, String url) {}

  /** The JSON document of {@code plan --json}. */
  public record PlanReport(String action, String targetVersion, String activeVersion, boolean targetInstalled,
      boolean configurationChanged, List<PlannedDownload> downloads, List<String> notes) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      var layout = ctx.session().layout();
      var files = ctx.ports().files();
      AgentConfig cfg = ctx.readConfig(config.file());
      RootFs target = GoalStateResolver.resolve(cfg, ctx.ports().facts().read(), layout).rootFs();
      Optional<String> active = files.exists(layout.current()) ? Optional.of(files.readLink(layout.current())) : Optional.empty();
      boolean installed = new VersionVerifier(files, layout).isCompleteAndVerified(target.versionName());
      String action = active.isEmpty() ? "bootstrap" : active.get().equals(target.versionName()) ? "apply" : "upgrade";
      Optional<AgentConfig> applied = ctx.applied().read();
      boolean changed = applied.map(a -> !ConfigDigest.of(a).equals(ConfigDigest.of(cfg))).orElse(true);
      List<PlannedDownload> downloads = installed ? List.of()
          : target.artifacts().stream().map(a -> new PlannedDownload(a.name(), a.url().toString())).toList();
      List<String> notes = new ArrayList<>();
      new UpgradeJournal(files, layout).read().ifPresent(j -> notes.add("an upgrade to " + j.targetVersion()
          + " is in flight: run 'noneops recover' first"));
      if (action.equals("apply") && !changed) {
        notes.add("the configuration is the applied one: nothing to do");
      }
      if (action.equals("upgrade")) {
        notes.add("the stack is stopped, switched to " + target.versionName() + " and started; it rolls back to "
            + active.get() + " if kubelet does not become ready");
      }
      PlanReport report = new PlanReport(action, target.versionName(), active.orElse(null), installed, changed, downloads, notes);
      if (json()) {
        printJson(report);
      } else {
        out().println("action:   " + action + (active.isPresent() ? " (active " + active.get() + ")" : ""));
        out().println("version:  " + target.versionName() + (installed ? " (installed and verified)" : " (to install)"));
        out().println("config:   " + (changed ? "differs from the applied configuration" : "same as the applied configuration"));
        downloads.forEach(d -> out().println("download: " + d.artifact() + " " + d.url()));
        notes.forEach(n -> out().println("note:     " + n));
      }
      return ExitCode.OK;
    }
  }
}
