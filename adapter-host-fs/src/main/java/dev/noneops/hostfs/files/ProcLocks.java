package dev.noneops.hostfs.files;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Reads {@code /proc/locks}: which process holds a lock on a file. Each held lock is a line
 * {@code <n>: FLOCK ADVISORY WRITE <pid> <major>:<minor>:<inode> 0 EOF} (major and minor in hex);
 * a waiter's line carries {@code ->} and is skipped.
 */
final class ProcLocks {
  private ProcLocks() {}

  /**
   * The pid holding a lock on the file with {@code device} ({@code st_dev}) and {@code inode};
   * when no line names that device (a file system whose {@code st_dev} is not its super block's,
   * as btrfs subvolumes report), the one line naming that inode, if there is exactly one.
   */
  static OptionalLong holder(List<String> lines, long device, long inode) {
    String exact = String.format(Locale.ROOT, "%02x:%02x:%d", major(device), minor(device), inode);
    String suffix = ":" + inode;
    OptionalLong byInode = OptionalLong.empty();
    int inodeMatches = 0;
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 6 || line.contains("->")) {
        continue;
      }
      long pid;
      try {
        pid = Long.parseLong(f[4]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (f[5].equals(exact)) {
        return OptionalLong.of(pid);
      }
      if (f[5].endsWith(suffix)) {
        byInode = OptionalLong.of(pid);
        inodeMatches++;
      }
    }
    return inodeMatches == 1 ? byInode : OptionalLong.empty();
  }

  /** glibc's {@code gnu_dev_major}. */
  static long major(long dev) {
    return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
  }

  /** glibc's {@code gnu_dev_minor}. */
  static long minor(long dev) {
    return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
  }
}
