/** Mountinfo parsing, mount identity of paths, and umount2. */
package dev.noneops.hostfs.mounts;
