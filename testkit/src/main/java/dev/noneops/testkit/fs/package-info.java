/** The simulated file tree: inodes, filesystems, mounts, the durability model, snapshots; the file and mount ports over it. */
package dev.noneops.testkit.fs;
