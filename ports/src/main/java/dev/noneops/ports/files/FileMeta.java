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
 * @param ctimeNanos {@code st_ctim} in nanoseconds since the epoch, or {@link #UNKNOWN_TIME} when the
 *     host does not report it. The kernel sets it to the current time whenever the entry's content
 *     or metadata changes (write, truncate, chmod, chown, link count, rename) and no system call
 *     sets it to a chosen value, which is what makes it a witness that a file is unchanged
 * @param mtimeNanos {@code st_mtim} in nanoseconds since the epoch, or {@link #UNKNOWN_TIME}; unlike
 *     the change time, programs may set it to any value ({@code touch -d}, {@code tar})
 */
public record FileMeta(
    Path path,
    FileType type,
    int mode,
    int uid,
    int gid,
    long size,
    long device,
    long inode,
    long mountId,
    long ctimeNanos,
    long mtimeNanos) {

  /** The value of {@link #ctimeNanos} and {@link #mtimeNanos} when the host does not report times. */
  public static final long UNKNOWN_TIME = Long.MIN_VALUE;

  public FileMeta {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
  }

  /** Metadata without times, for hosts that do not report them. */
  public FileMeta(
      Path path,
      FileType type,
      int mode,
      int uid,
      int gid,
      long size,
      long device,
      long inode,
      long mountId) {
    this(path, type, mode, uid, gid, size, device, inode, mountId, UNKNOWN_TIME, UNKNOWN_TIME);
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

  /** Whether the host reported the change time (and the modification time) of the entry. */
  public boolean hasTimes() {
    return ctimeNanos != UNKNOWN_TIME && mtimeNanos != UNKNOWN_TIME;
  }

  /** The same metadata reported under another path (a host that maps paths, such as a chroot). */
  public FileMeta withPath(Path shown) {
    return new FileMeta(
        shown, type, mode, uid, gid, size, device, inode, mountId, ctimeNanos, mtimeNanos);
  }
}
