package dev.noneops.core.goalstate;

import java.util.Objects;

/** The resolved goal state of a node: what to install and how to start it. */
public record MachineGoalState(RootFs rootFs, NodeStart nodeStart) {
  public MachineGoalState {
    Objects.requireNonNull(rootFs, "rootFs");
    Objects.requireNonNull(nodeStart, "nodeStart");
  }
}
