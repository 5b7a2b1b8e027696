package dev.noneops.cli;

import dev.noneops.core.install.Manifest;
import dev.noneops.core.install.VersionVerifier;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.upgrade.DiskUsage;
import dev.noneops.core.upgrade.VersionPruner;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /**
   * One installed version, or one being removed (a prune was interrupted; the next recover or
   * prune finishes it). Sizes come from the manifest of a complete version and from the disk
   * otherwise.
   */
  public record VersionEntry(
      String version,
      boolean active,
      boolean complete,
      boolean beingRemoved,
      long bytes,
      long files,
      List<String> keptBecause) {}

  /** The JSON document of {@code versions --json}. */
  public record VersionsReport(String activeVersion, List<VersionEntry> versions) {}

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
      VersionsReport report = list(ctx);
      if (json()) {
        printJson(report);
      } else if (report.versions().isEmpty()) {
        out().println("no version is installed");
      } else {
        for (VersionEntry e : report.versions()) {
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

  /** Every installed version and every one being removed, with its size and what keeps it. */
  private static VersionsReport list(NodeContext ctx) throws IOException {
    Layout layout = ctx.session().layout();
    HostFiles files = ctx.ports().files();
    VersionPruner pruner = new VersionPruner(
        files, ctx.ports().processes(), layout, ctx.session().paths(), ctx.teardown()::removeTree);
    VersionVerifier verifier = new VersionVerifier(files, layout);
    Optional<String> active = files.exists(layout.current())
        ? Optional.of(files.readLink(layout.current()))
        : Optional.empty();
    Map<String, List<String>> references = pruner.references();
    List<VersionEntry> entries = new ArrayList<>();
    for (String v : pruner.installedVersions()) {
      Optional<Manifest> manifest = verifier.manifest(v);
      DiskUsage usage = manifest.isPresent()
          ? new DiskUsage(
              manifest.get().files().size(),
              manifest.get().files().stream().mapToLong(Manifest.Entry::size).sum())
          : DiskUsage.of(files, layout.versionDir(v));
      entries.add(new VersionEntry(
          v,
          active.isPresent() && active.get().equals(v),
          manifest.isPresent(),
          false,
          usage.bytes(),
          usage.files(),
          references.getOrDefault(v, List.of())));
    }
    for (String v : pruner.versionsBeingRemoved()) {
      DiskUsage usage = DiskUsage.of(files, pruner.tombstone(v));
      entries.add(new VersionEntry(v, false, false, true, usage.bytes(), usage.files(), List.of()));
    }
    return new VersionsReport(active.orElse(null), entries);
  }
}
