/** The command port over a registry of simulated programs, and the kernel state modprobe, sysctl and ip change. */
package dev.noneops.testkit.commands;
