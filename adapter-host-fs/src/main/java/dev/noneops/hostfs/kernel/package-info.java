/** The kernel's modules and sysctls over {@code modprobe} and {@code sysctl}. */
package dev.noneops.hostfs.kernel;
