package dev.noneops.testkit.fs;

import dev.noneops.ports.files.FileType;

/**
 * The superblock of one simulated filesystem (a disk partition or a tmpfs): a device number, an inode counter and
 * a root directory. A tmpfs keeps nothing across a crash.
 */
final class SimSuperblock {
  final int major;
  final int minor;
  final String type;
  final boolean tmpfs;
  final ChangeClock changeClock;
  private long nextInode = 2;
  Inode root;

  SimSuperblock(int major, int minor, String type, boolean tmpfs, ChangeClock changeClock) {
    this.major = major;
    this.minor = minor;
    this.type = type;
    this.tmpfs = tmpfs;
    this.changeClock = changeClock;
    this.root = new Inode(this, FileType.DIRECTORY, 0755, 0, 0, null, 0, 0);
  }

  long nextInode() {
    return nextInode++;
  }

  /** {@code st_dev} as Linux encodes it ({@code makedev}). */
  long device() {
    return encodeDevice(major, minor);
  }

  String deviceString() {
    return major + ":" + minor;
  }

  static long encodeDevice(long major, long minor) {
    return (minor & 0xffL)
        | ((major & 0xfffL) << 8)
        | ((minor & ~0xffL) << 12)
        | ((major & ~0xfffL) << 32);
  }
}
