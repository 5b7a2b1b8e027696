package dev.noneops.hostfs.mounts;

import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.hostfs.nativeio.Umount2;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The mount table read from a mountinfo file (by default {@code /proc/self/mountinfo}, the
 * agent's own mount namespace) and {@code umount2(2)} through libc.
 */
public final class ProcMountTable implements MountTable {

  private final Path mountInfo;
  private final Umount2 umount2;

  public ProcMountTable(Path mountInfo, Umount2 umount2) {
    this.mountInfo = Objects.requireNonNull(mountInfo, "mountInfo");
    this.umount2 = Objects.requireNonNull(umount2, "umount2");
  }

  @Override
  public List<MountEntry> mounts() throws IOException {
    byte[] content;
    try {
      content = Files.readAllBytes(mountInfo);
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", mountInfo);
    }
    return MountInfoParser.parse(content);
  }

  @Override
  public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
    if (!mountPoint.isAbsolute()) {
      throw new IllegalArgumentException("mount point must be an absolute path: " + mountPoint);
    }
    umount2.umount(mountPoint, toBits(flags));
  }

  /** The {@code umount2} flag bits for a set of flags. */
  static int toBits(Set<UnmountFlag> flags) {
    int bits = 0;
    for (UnmountFlag flag : flags) {
      bits |= switch (flag) {
        case FORCE -> Umount2.MNT_FORCE;
        case DETACH -> Umount2.MNT_DETACH;
        case NOFOLLOW -> Umount2.UMOUNT_NOFOLLOW;
      };
    }
    return bits;
  }
}
