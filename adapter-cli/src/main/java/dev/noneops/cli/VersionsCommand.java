package dev.noneops.cli;

import dev.noneops.core.node.InstalledVersions;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
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

  /** The longest a reason is when {@link #briefly} names it. */
  private static final int REASON_WIDTH = 48;

  /**
   * The first reason in a few words ({@link #shortened}) and how many more (--json lists them
   * all), so that a line that names a version and why it is kept fits 120 columns.
   */
  static String briefly(List<String> reasons) {
    if (reasons.isEmpty()) {
      return "";
    }
    String first = reasons.get(0);
    String shown = shortened(first);
    return reasons.size() > 1
        ? shown + "; and " + (reasons.size() - 1) + " more (--json lists all)"
        : shown.equals(first) ? shown : shown + " (--json lists all)";
  }

  /**
   * A reason in a few words: without its parenthesis, each absolute path by its file name alone
   * ({@code process 1005 executes coredns}), cut at {@value #REASON_WIDTH} characters.
   */
  static String shortened(String reason) {
    int parenthesis = reason.indexOf(" (");
    String words = parenthesis > 0 ? reason.substring(0, parenthesis) : reason;
    String shown = Arrays.stream(words.split(" "))
        .map(w -> w.startsWith("/") && w.length() > 1 && !w.endsWith("/")
            ? w.substring(w.lastIndexOf('/') + 1)
            : w)
        .collect(Collectors.joining(" "));
    return shown.length() > REASON_WIDTH ? shown.substring(0, REASON_WIDTH - 3) + "..." : shown;
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
