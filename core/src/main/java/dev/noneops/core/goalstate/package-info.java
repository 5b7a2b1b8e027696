/**
 * What a node installs and runs, resolved from a configuration and the host's facts: {@link
 * dev.noneops.core.goalstate.MachineGoalState}, its {@link dev.noneops.core.goalstate.RootFs}
 * (the component versions, the version name and every {@link dev.noneops.core.goalstate.Artifact}
 * with where it comes from and how it is verified) and its {@link
 * dev.noneops.core.goalstate.NodeStart} (LocalDNS, containerd and kubelet as they are started).
 */
package dev.noneops.core.goalstate;
