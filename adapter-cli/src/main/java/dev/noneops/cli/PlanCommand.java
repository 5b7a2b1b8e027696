package dev.noneops.cli;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodePlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code noneops plan}: what applying a configuration would change, changing nothing — whether
 * that is a bootstrap, an in-place apply or an upgrade, the version it needs, the shared files
 * that would be created, changed or removed (units and drop-ins among them), the services that
 * would be started or restarted, and the downloads. The lists come from {@link Node#plan()},
 * which runs the node's own configuration writer without writing.
 */
@Command(
    name = "plan",
    header = "Show what bootstrap, apply or upgrade would change",
    description =
        "Changing nothing: the action and the version it needs, the files that would be created, changed or removed (and the units among them), the services that would be started or restarted (in order), and the downloads.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  noneops plan --config /etc/unbounded/agent/config.json",
      "  noneops --json plan --config new.json | jq .action"
    })
public final class PlanCommand extends CliCommand {
  @Mixin
  ConfigOption config;

  /** One artifact that would be downloaded. */
  public record PlannedDownload(String artifact, String url) {}

  /** The JSON document of {@code plan --json}. */
  public record PlanReport(
      String action,
      String targetVersion,
      String activeVersion,
      boolean targetInstalled,
      boolean configurationChanged,
      List<String> created,
      List<String> changed,
      List<String> removed,
      List<String> takenOver,
      List<String> units,
      List<String> starts,
      List<String> restarts,
      List<PlannedDownload> downloads,
      List<String> notes) {}

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx =
        openNode().cluster(new NodeContext.ClusterOptions(Optional.empty(), false))) {
      AgentConfig cfg = readFollowedConfig(ctx, config.file());
      NodePlan plan = ctx.node(Optional.of(cfg), Optional.empty()).plan();
      PlanReport report = new PlanReport(
          plan.action().command(),
          plan.targetVersion(),
          plan.activeVersion().orElse(null),
          plan.targetInstalled(),
          plan.configurationChanged(),
          strings(plan.created()),
          strings(plan.changed()),
          strings(plan.removed()),
          strings(plan.takenOver()),
          strings(plan.units()),
          plan.starts(),
          plan.restarts(),
          plan.downloads().stream()
              .map(a -> new PlannedDownload(a.name(), a.url().toString()))
              .toList(),
          plan.notes());
      if (json()) {
        printJson(report);
      } else {
        printText(report, plan);
      }
      return ExitCode.OK;
    }
  }

  private void printText(PlanReport report, NodePlan plan) {
    out()
        .println("action:   " + report.action()
            + plan.activeVersion().map(a -> " (active " + a + ")").orElse(""));
    out()
        .println("version:  " + plan.targetVersion()
            + (plan.targetInstalled() ? " (installed and verified)" : " (to install)"));
    out()
        .println("config:   "
            + (report.configurationChanged()
                ? "differs from the applied configuration"
                : "same as the applied configuration"));
    report.created().forEach(p -> out().println("create:   " + p));
    report.changed().forEach(p -> out().println("change:   " + p));
    report.removed().forEach(p -> out().println("remove:   " + p));
    report.takenOver().forEach(p -> out().println("take over (saved, put back at reset): " + p));
    report.units().forEach(p -> out().println("unit:     " + p));
    report.starts().forEach(u -> out().println("start:    " + u));
    report.restarts().forEach(u -> out().println("restart:  " + u));
    report.downloads().forEach(d -> out().println("download: " + d.artifact() + " " + d.url()));
    report.notes().forEach(n -> out().println("note:     " + n));
  }

  private static List<String> strings(List<Path> paths) {
    return paths.stream().map(Path::toString).toList();
  }
}
