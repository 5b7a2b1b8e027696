/**
 * The phases the use cases run, each one step of a node's life (check the host, install and
 * activate a version, install the agent, tune the kernel, write the units and the configuration,
 * start, restart and stop the stack), over the {@link
 * dev.noneops.core.node.internal.phases.PhaseContext} they share.
 */
package dev.noneops.core.node.internal.phases;
