/** Simulated processes and the cgroup v2 tree; the process-table and cgroup ports over them. */
package dev.noneops.testkit.process;
