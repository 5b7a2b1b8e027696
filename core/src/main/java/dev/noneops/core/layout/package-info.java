/**
 * Where a node's files live: the agent-owned layout and the shared host paths, and the one lock
 * ({@link dev.noneops.core.node.internal.task.NodeLock}) that serialises every mutating operation across
 * processes.
 */
package dev.noneops.core.layout;
