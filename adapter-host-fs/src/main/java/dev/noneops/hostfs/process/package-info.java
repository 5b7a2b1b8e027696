/** The /proc process table and the cgroup v2 hierarchy. */
package dev.noneops.hostfs.process;
