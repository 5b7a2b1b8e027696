/** HTTP and DNS health probes. */
package dev.noneops.hostfs.health;
