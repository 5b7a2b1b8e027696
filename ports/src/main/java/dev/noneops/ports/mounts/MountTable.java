package dev.noneops.ports.mounts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The mount table of the agent's mount namespace, and {@code umount2(2)}. */
public interface MountTable {

  /** Every mount, in mountinfo order (parents before the mounts stacked on them). */
  List<MountEntry> mounts() throws IOException;

  /**
   * Unmounts the topmost mount at {@code mountPoint}. EINVAL when nothing is mounted there, EBUSY
   * when the mount is in use.
   */
  void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException;
}
