package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.internal.phases.PhaseContext;
import java.util.List;

/**
 * What the upgrade's steps ask of the node they upgrade: its parts and its phases, run as the node
 * runs them for a bootstrap or a reset, so an upgrade and a rollback write, stop, start and clean
 * exactly as those do.
 */
public interface UpgradedNode {
  /** The node's shared parts: its ports, layout, ownership record and verifier. */
  PhaseContext parts();

  /** Installs the target version beside the active one; returns the slot it was installed in. */
  String prepareTarget();

  /** Writes {@code goal}'s files and units. */
  void writeConfiguration(MachineGoalState goal);

  /** Stops the stack. */
  void stop();

  /** Starts a stopped stack and waits for kubelet, as a start after a stop does. */
  void startStopped();

  /** Whether the stack is running. */
  boolean running();

  /** Ends the node's pods as the teardown does; returns what it could not end, one line each. */
  List<String> endPods() throws InterruptedException;

  /** Cleans the CNI configuration and state the pods left; returns what it kept as blocking. */
  List<String> cleanCniState() throws InterruptedException;
}
