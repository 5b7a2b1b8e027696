/**
 * The task runtime the use cases run on: {@link dev.noneops.core.node.internal.task.TaskRunner}
 * (each step logged and timed, failures thrown as typed errors naming the task path), the node
 * lock ({@link dev.noneops.core.node.internal.task.NodeLock}, re-entrant in a process, "busy" for
 * another) and the host commands the node runs. The lowest feature package: it uses no other.
 */
package dev.noneops.core.node.internal.task;
