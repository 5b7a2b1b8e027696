/** The file port: durable writes, renames and symlink flips, exact modes, lstat with mount identity, flock. */
package dev.noneops.hostfs.files;
