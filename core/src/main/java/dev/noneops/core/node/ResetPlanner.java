package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.files.OriginalFiles;
import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.PreexistingCniEntries;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.phases.PhaseContext;
import dev.noneops.core.node.internal.render.CniBridges;
import dev.noneops.core.node.internal.render.UnitFiles;
import dev.noneops.core.node.internal.teardown.AgentMetricsFile;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Node#resetPlan()}: the steps of {@link ResetUseCase} and the teardown it runs, each
 * looked up on the host (which units carry the marker, what the ownership record lists, which
 * data directories and versions exist), nothing changed and no lock taken.
 */
final class ResetPlanner {
  private final Node node;
  private final PhaseContext parts;
  private final HostFiles files;
  private final HostPaths paths;
  private final Layout layout;
  private final List<TeardownResult.Removed> steps = new ArrayList<>();

  ResetPlanner(Node node) {
    this.node = node;
    this.parts = node.parts();
    this.files = parts.ports().files();
    this.paths = parts.paths();
    this.layout = parts.layout();
  }

  ResetPlan plan() {
    return UpgradeParts.call("reset --dry-run", () -> {
      if (!node.teardown().present()) {
        bootstrapLeftovers();
        return new ResetPlan(false, steps);
      }
      UnitFiles.Scan units = new UnitFiles(files, paths).scan();
      for (String unit : units.ownedUnits()) {
        step(TeardownAction.UNIT_STOPPED, unit, "stopped and disabled");
      }
      step(
          TeardownAction.SHIM_KILLED,
          "the node's pods",
          "its container shims and the processes in the pods' cgroups are ended");
      for (UnitFiles.UnitFile dropIn : units.ownedDropIns()) {
        step(TeardownAction.UNIT_FILE_REMOVED, dropIn.path().toString(), "a drop-in of this node");
      }
      for (UnitFiles.UnitFile unit : units.ownedUnitFiles()) {
        step(TeardownAction.UNIT_FILE_REMOVED, unit.path().toString(), "a unit of this node");
      }
      ifExists(paths.agentState(), TeardownAction.CONFIG_FILE_REMOVED, "the agent's state");
      ifExists(paths.agentRunDir(), TeardownAction.TREE_REMOVED, "the agent's run-time directory");
      AgentMetricsFile metrics = new AgentMetricsFile(files, paths.agentMetricsTextfile());
      if (metrics.present()) {
        step(
            TeardownAction.CONFIG_FILE_REMOVED,
            metrics.path().toString(),
            "the agent's metrics for node_exporter");
      }
      OwnershipStore ownership = new OwnershipStore(files, paths.ownershipRecord());
      sharedFiles(ownership);
      ifExists(paths.ownershipRecord(), TeardownAction.CONFIG_FILE_REMOVED, "the ownership record");
      AppliedConfigStore applied = new AppliedConfigStore(files, paths);
      String dns = applied
          .read()
          .map(c -> c.normalized().localDns().interfaceName())
          .orElse(AgentConfig.DEFAULT_LOCALDNS_INTERFACE);
      if (parts.ports().network().link(dns).isPresent()) {
        step(TeardownAction.CONFIG_FILE_REMOVED, "LocalDNS interface " + dns, "when a dummy link");
      }
      for (String bridge : CniBridges.named(files, paths.cniConfDir(), cniEntriesBefore())) {
        if (parts.ports().network().link(bridge).isPresent()) {
          step(
              TeardownAction.CONFIG_FILE_REMOVED,
              "CNI bridge " + bridge,
              "unless the host had it before the node");
        }
      }
      ifExists(applied.path(), TeardownAction.CONFIG_FILE_REMOVED, "the applied configuration");
      for (Path dir : node.teardown().steps().dataDirs()) {
        ifExists(dir, TeardownAction.TREE_REMOVED, "after unmounting what pods left below it");
      }
      step(
          TeardownAction.TREE_REMOVED,
          "what the node's pods added to " + paths.cniConfDir() + " and "
              + PreexistingCniEntries.CNI_STATE_DIR,
          "never an entry from before the node");
      List<String> versions = versions();
      ifExists(
          layout.root(),
          TeardownAction.TREE_REMOVED,
          versions.isEmpty()
              ? "the layout"
              : "the layout, with versions " + String.join(", ", versions));
      return new ResetPlan(true, steps);
    });
  }

  /**
   * The shared files, links and directories the ownership record lists, but those already named
   * (units) and those under a data directory (removed whole): files and links first, then the
   * directories, which go only when empty.
   */
  private void sharedFiles(OwnershipStore ownership) throws IOException {
    OriginalFiles originals = SharedFileWriter.originalsBeside(files, ownership);
    List<Path> dataDirs = node.teardown().steps().dataDirs();
    List<TeardownResult.Removed> directories = new ArrayList<>();
    for (OwnedEntry entry : ownership.load().entries()) {
      Path path = entry.path();
      String subject = path.toString();
      if (steps.stream().anyMatch(s -> s.subject().equals(subject))
          || dataDirs.stream().anyMatch(path::startsWith)) {
        continue;
      }
      switch (entry.kind()) {
        case DIRECTORY ->
          directories.add(new TeardownResult.Removed(
              TeardownAction.DIRECTORY_REMOVED, subject, "created by the node; when empty"));
        case SYMLINK ->
          step(TeardownAction.SYMLINK_REMOVED, subject, "the node's link, unless re-pointed since");
        case FILE -> {
          if (originals.has(path)) {
            step(
                TeardownAction.ORIGINAL_RESTORED,
                subject,
                "the file from before the node put back, unless changed since written");
          } else {
            step(TeardownAction.CONFIG_FILE_REMOVED, subject, "unless changed since written");
          }
        }
      }
    }
    steps.addAll(directories);
  }

  private void bootstrapLeftovers() throws IOException {
    ifExists(layout.staging(), TeardownAction.TREE_REMOVED, "a refused bootstrap's staging");
    ifExists(
        layout.lock(),
        TeardownAction.CONFIG_FILE_REMOVED,
        "the node lock of a bootstrap that installed nothing");
    ifExists(layout.root(), TeardownAction.DIRECTORY_REMOVED, "when nothing else is in it");
  }

  private List<String> versions() throws IOException {
    if (!files.exists(layout.root())) {
      return List.of();
    }
    List<String> versions = new ArrayList<>();
    for (String name : files.list(layout.root())) {
      try {
        if (files.exists(layout.manifest(name))) {
          versions.add(name);
        }
      } catch (IllegalArgumentException notAVersionName) {
        // the lock, the journal and the other entries of the layout that name no version
      }
    }
    return versions;
  }

  private Optional<Set<Path>> cniEntriesBefore() throws IOException {
    try {
      return new PreexistingCniEntries(files, paths, layout).load();
    } catch (CorruptStateException e) {
      return Optional.empty();
    }
  }

  private void ifExists(Path path, TeardownAction action, String detail) throws IOException {
    if (files.exists(path)) {
      step(action, path.toString(), detail);
    }
  }

  private void step(TeardownAction action, String subject, String detail) {
    steps.add(new TeardownResult.Removed(action, subject, detail));
  }
}
