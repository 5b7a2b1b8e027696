/** Where a node's files live: the agent-owned layout and the shared host paths. */
package dev.noneops.core.layout;
