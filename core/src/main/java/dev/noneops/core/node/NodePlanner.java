package dev.noneops.core.node;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.files.PlannedWrites;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.render.NodeConfigWriter;
import dev.noneops.core.node.internal.stack.ClusterReadyGate;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Computes a {@link NodePlan}: runs the node's own {@link NodeConfigWriter} over
 * {@link PlannedWrites} (which reads the host and records instead of writing), so the files
 * listed and the families found changed are exactly what {@link Node#configure()} would write
 * and report, and derives the starts and restarts with the rules of
 * {@link Node#start(boolean, ConfigureResult)}.
 */
final class NodePlanner {

  private final Node node;

  NodePlanner(Node node) {
    this.node = node;
  }

  NodePlan plan(MachineGoalState goal) throws IOException {
    HostFiles host = node.parts().params().ports().files();
    String target = goal.rootFs().versionName();
    Optional<String> active = node.version();
    VersionVerifier verifier = node.parts().verifier();
    // the check prepare itself runs, so the plan downloads exactly what prepare would
    boolean installed = verifier.verifyTrustingStamps(target).verified();
    NodePlan.Action action = active.isEmpty()
        ? NodePlan.Action.BOOTSTRAP
        : active.get().equals(target) ? NodePlan.Action.APPLY : NodePlan.Action.UPGRADE;
    List<String> notes = new ArrayList<>();
    new UpgradeJournal(host, node.parts().layout())
        .read()
        .ifPresent(j -> notes.add(
            "an upgrade to " + j.targetVersion() + " is in flight: run 'noneops recover' first"));

    PlannedWrites planned = new PlannedWrites(host);
    OwnershipStore store = new OwnershipStore(planned, node.parts().paths().ownershipRecord());
    SharedFileWriter shared = new SharedFileWriter(planned, store);
    Path originals = SharedFileWriter.originalsBeside(planned, store).directory();
    NodeConfigWriter writer = new NodeConfigWriter(
        shared,
        node.parts().paths(),
        node.parts().layout(),
        new VersionVerifier(planned, node.parts().layout()));
    if (action == NodePlan.Action.BOOTSTRAP) {
      writer.writeModulesLoad();
      writer.writeUnits(goal);
    }
    ConfigureResult changes = new ConfigureResult(
        writer.writeContainerd(goal), writer.writeKubelet(goal), writer.writeLocalDns(goal));
    if (action == NodePlan.Action.BOOTSTRAP) {
      writer.writeSysctl();
    } else {
      writer.keepSysctlCurrent();
    }
    if (verifier.manifest(target).isPresent()) {
      writer.writeCniLinks(target);
    } else {
      notes.add("the CNI plugin links in " + node.parts().paths().cniBinDir() + " are known once "
          + target + " is installed");
    }
    if (active.isEmpty() || !active.get().equals(target)) {
      planned.symlinkDurably(node.parts().layout().current(), target);
    }

    List<Path> created = new ArrayList<>();
    List<Path> changed = new ArrayList<>();
    List<Path> removed = new ArrayList<>(planned.removed());
    removed.removeAll(shared.takenOver());
    for (Path path : planned.touched()) {
      if ((planned.removed().contains(path) && !shared.takenOver().contains(path))
          || path.startsWith(originals)
          || path.equals(store.disownedPath())) {
        continue;
      }
      Optional<FileMeta> meta = host.lstat(path);
      if (meta.isEmpty()) {
        created.add(path);
      } else if (!meta.get().isDirectory()) {
        changed.add(path);
      }
    }
    List<Path> units = new ArrayList<>();
    Path unitDir = node.parts().paths().unit(HostPaths.KUBELET_UNIT).getParent();
    for (Path path : planned.touched()) {
      if (!planned.removed().contains(path)
          && (unitDir.equals(path.getParent())
              || node.parts().paths().kubeletDropInDir().equals(path.getParent()))
          && (created.contains(path) || changed.contains(path))) {
        units.add(path);
      }
    }

    for (Path path : shared.disowned()) {
      notes.add(path + " no longer holds the node's link (something else replaced it): the node"
          + " would stop owning it and leave it as it is");
    }
    List<String> starts = new ArrayList<>();
    List<String> restarts = new ArrayList<>();
    boolean running = node.running();
    if (action == NodePlan.Action.UPGRADE) {
      restarts.addAll(HostPaths.STACK_UNITS);
      notes.add("the stack is stopped, switched to " + target + " and started; it rolls back to "
          + active.get() + " if kubelet does not become ready");
      notes.add(readinessGate());
    } else if (!running) {
      starts.addAll(HostPaths.STACK_UNITS);
    } else {
      if (changes.localDnsChanged()) {
        restarts.add(HostPaths.LOCALDNS_UNIT);
      }
      if (changes.containerdChanged()) {
        restarts.add(HostPaths.CONTAINERD_UNIT);
      }
      if (changes.containerdChanged() || changes.kubeletChanged()) {
        restarts.add(HostPaths.KUBELET_UNIT);
      }
    }
    List<Artifact> downloads = installed ? List.of() : goal.rootFs().artifacts();
    List<Path> takenOver = shared.takenOver().stream()
        .filter(p -> !node.parts().paths().ownershipRecord().equals(p))
        .distinct()
        .toList();
    Optional<AgentConfig> applied = new AppliedConfigStore(host, node.parts().paths()).read();
    Optional<AgentConfig> config = node.parts().params().config();
    boolean configurationChanged = applied.isEmpty()
        || config.isEmpty()
        || !ConfigDigest.of(applied.get()).equals(ConfigDigest.of(config.get()));
    NodePlan plan = new NodePlan(
        action,
        target,
        active,
        installed,
        configurationChanged,
        created,
        changed,
        removed,
        takenOver,
        units,
        starts,
        restarts,
        downloads,
        notes);
    if (!plan.nothingToDo()) {
      return plan;
    }
    notes.add("the node is already in this configuration: nothing to do");
    return new NodePlan(
        action,
        target,
        active,
        installed,
        configurationChanged,
        created,
        changed,
        removed,
        takenOver,
        units,
        starts,
        restarts,
        downloads,
        notes);
  }

  /** The readiness gate an upgrade would pass, in words, with its bounds. */
  private String readinessGate() {
    String healthz = "kubelet's healthz within "
        + ClusterReadyGate.describe(node.parts().params().overrides().timeouts().kubeletReady());
    return node.parts()
        .params()
        .cluster()
        .map(c -> "readiness gate: " + healthz + ", then the Node Ready in the cluster (the"
            + " target's kubelet version, this boot's id, a heartbeat newer than the switch)"
            + " within " + ClusterReadyGate.describe(c.readyWithin()) + " of the switch;"
            + " kubelet's healthz alone if the API server cannot be reached before the switch")
        .orElse("readiness gate: " + healthz + " (no cluster credentials: the Node's readiness"
            + " in the cluster is not checked)");
  }
}
