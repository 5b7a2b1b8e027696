package dev.noneops.cli;

import dev.noneops.core.node.InstalledVersions;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code noneops versions}: every installed version with its size, whether it is active, and why
 * a prune would keep it (a running process executes from it, containerd still references it).
 */
@Command(
    name = "versions",
    header = "List installed versions and why each is kept",
    description =
        "Size, active or not, and why 'noneops prune' would keep each non-active one (a running process executes from it, containerd's tasks reference it).",
    footerHeading = "%nExamples:%n",
    footer = {"  noneops versions", "  noneops --json versions"})
public final class VersionsCommand extends CliCommand {

  /** The first two reasons and how many more (--json lists them all). */
  static String briefly(List<String> reasons) {
    String shown = String.join("; ", reasons.subList(0, Math.min(2, reasons.size())));
    return reasons.size() > 2
        ? shown + "; and " + (reasons.size() - 2) + " more (--json lists all)"
        : shown;
  }

  @Override
  protected ExitCode execute() throws Exception {
    try (NodeContext ctx = openNode()) {
      InstalledVersions report =
          ctx.node(Optional.empty(), Optional.empty()).inspect().installedVersions();
      if (json()) {
        printJson(report);
      } else if (report.versions().isEmpty()) {
        out()
            .println(ctx.teardown().present() ? "no version is installed" : "no node on this host");
      } else {
        for (InstalledVersions.Version e : report.versions()) {
          out()
              .printf(
                  "%s %-40s %8.1f MiB  %3d files%s%s%n",
                  e.active() ? "*" : " ",
                  e.version(),
                  e.bytes() / 1048576.0,
                  e.files(),
                  e.beingRemoved()
                      ? "  BEING REMOVED (a prune was interrupted; the next recover or prune finishes it)"
                      : e.complete()
                          ? ""
                          : "  INCOMPLETE (no manifest; repaired on the next prepare)",
                  e.keptBecause().isEmpty() ? "" : "  kept: " + briefly(e.keptBecause()));
        }
      }
      return ExitCode.OK;
    }
  }
}
