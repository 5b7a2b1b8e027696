package dev.noneops.core.node.internal.version;

import dev.noneops.ports.files.FileMeta;
import java.util.Optional;

/**
 * The metadata of an installed file that changes whenever its content could have changed: the
 * inode (a file replaced by rename or copy gets another one), the change time (set by the kernel on
 * every write, truncate, chmod, chown and rename, and settable by no system call) and the
 * modification time. Together with the size and mode a manifest already lists, an unchanged stamp
 * lets {@code prepare} trust a file without reading it; {@code verify} still reads everything,
 * because only a content hash notices corruption below the filesystem.
 *
 * @param inode {@code st_ino}
 * @param ctimeNanos {@code st_ctim} in nanoseconds since the epoch
 * @param mtimeNanos {@code st_mtim} in nanoseconds since the epoch
 */
public record FileStamp(long inode, long ctimeNanos, long mtimeNanos) {

  public FileStamp {
    if (ctimeNanos == FileMeta.UNKNOWN_TIME || mtimeNanos == FileMeta.UNKNOWN_TIME) {
      throw new IllegalArgumentException(
          "a file stamp needs both the change and the modification time");
    }
  }

  /** The stamp of what {@code lstat} reported; empty when the host reports no times. */
  public static Optional<FileStamp> of(FileMeta meta) {
    return meta.hasTimes()
        ? Optional.of(new FileStamp(meta.inode(), meta.ctimeNanos(), meta.mtimeNanos()))
        : Optional.empty();
  }

  /** Whether {@code meta} shows the same inode and times. */
  public boolean matches(FileMeta meta) {
    return meta.inode() == inode
        && meta.ctimeNanos() == ctimeNanos
        && meta.mtimeNanos() == mtimeNanos;
  }
}
