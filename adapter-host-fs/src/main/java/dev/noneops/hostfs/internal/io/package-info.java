/** Internal to adapter-host-fs (no other module uses it). Translation of the JDK's I/O exceptions into errno-carrying host errors, and directory fsync. */
package dev.noneops.hostfs.internal.io;
