package dev.noneops.core.node.internal.phases;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.NodeRoot;
import dev.noneops.core.node.internal.version.VersionInstaller;

/**
 * Installs and verifies a goal's version in the layout (or runs the download override), touching
 * nothing the running node uses. The caller holds the lock.
 */
public final class InstallVersionPhase {
  private final PhaseContext node;

  public InstallVersionPhase(PhaseContext node) {
    this.node = node;
  }

  /** @return the root whose slot is the version name */
  public NodeRoot run(MachineGoalState goal) throws Exception {
    String version = goal.rootFs().versionName();
    if (node.overrides().download().isPresent()) {
      node.overrides().download().get().run();
    } else {
      new VersionInstaller(
              node.ports().files(), node.ports().downloads(), node.layout(), node.tasks())
          .install(goal.rootFs());
    }
    return new NodeRoot(node.layout().versionDir(version), version);
  }
}
