package dev.noneops.core.node.internal.phases;

import dev.noneops.core.goalstate.MachineGoalState;
import java.io.IOException;

/** Writes the three units and kubelet's drop-ins for a goal, reloading systemd when any changed. */
public final class WriteUnitsPhase {
  private final PhaseContext node;

  public WriteUnitsPhase(PhaseContext node) {
    this.node = node;
  }

  /** @return whether any unit or drop-in changed */
  public boolean run(MachineGoalState goal) throws IOException {
    boolean changed = node.configWriter().writeUnits(goal);
    if (changed) {
      node.ports().systemd().daemonReload();
    }
    return changed;
  }
}
