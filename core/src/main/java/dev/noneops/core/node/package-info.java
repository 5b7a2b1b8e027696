/**
 * The node lifecycle of a none node: {@link dev.noneops.core.node.Node} (prepare, provision,
 * configure, kernel modules, start, restart, stop, status) bound by
 * {@link dev.noneops.core.node.Params} to one configuration, and the isolation backend built on
 * it.
 */
package dev.noneops.core.node;
