/** The host ports over the real Linux kernel; {@link dev.noneops.hostfs.RealHost} builds them all except systemd. */
package dev.noneops.hostfs;
