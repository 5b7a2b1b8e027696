package dev.noneops.ports.files;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@code lstat(2)} says about a path, plus the identity of the mount it lives on.
 *
 * @param path the path that was examined
 * @param type the entry's type; a symlink is reported as {@link FileType#SYMLINK}, never followed
 * @param mode the permission bits (including setuid, setgid, sticky), e.g. {@code 0755}
 * @param uid owner user id
 * @param gid owner group id
 * @param size size in bytes (for a symlink, the length of its target)
 * @param device {@code st_dev}: the device of the filesystem holding the entry
 * @param inode {@code st_ino}
 * @param mountId the id (as in mountinfo's first field) of the mount the entry is on. Two bind
 *     mounts of one filesystem share {@code device} but not {@code mountId}, which is why a walker
 *     that must never cross a mount compares this field
 */
public record FileMeta(
    Path path, FileType type, int mode, int uid, int gid, long size, long device, long inode, long mountId) {

  public FileMeta {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
  }

  public boolean isDirectory() {
    return type == FileType.DIRECTORY;
  }

  public boolean isRegularFile() {
    return type == FileType.REGULAR;
  }

  public boolean isSymlink() {
    return type == FileType.SYMLINK;
  }
}
