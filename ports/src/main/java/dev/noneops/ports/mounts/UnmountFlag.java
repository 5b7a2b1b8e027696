package dev.noneops.ports.mounts;

/** Flags of {@code umount2(2)}. */
public enum UnmountFlag {
  /** {@code MNT_FORCE}. */
  FORCE,
  /** {@code MNT_DETACH}: lazy unmount; the mount disappears from the namespace at once. */
  DETACH,
  /** {@code UMOUNT_NOFOLLOW}: do not follow a symlink at the mount point. */
  NOFOLLOW
}
