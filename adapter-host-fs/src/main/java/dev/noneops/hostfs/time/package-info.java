/** The system clock as a port. */
package dev.noneops.hostfs.time;
