/**
 * The cluster's API server for {@code Machine} objects, in memory ({@link
 * dev.noneops.testkit.machine.SimMachineApi}): resourceVersions, optimistic concurrency,
 * watches that can be lost and resumed, conflicts on demand, and one {@code MachineResource}
 * client per node.
 */
package dev.noneops.testkit.machine;
