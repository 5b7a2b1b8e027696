/**
 * The node's {@code Machine} object in the cluster ({@link dev.noneops.ports.machine.MachineResource}):
 * the cluster-scoped {@code machines.unbounded-cloud.io/v1alpha3} resource through which a fleet
 * asks a node to repave or reboot, and through which the node reports its phase and conditions.
 */
package dev.noneops.ports.machine;
