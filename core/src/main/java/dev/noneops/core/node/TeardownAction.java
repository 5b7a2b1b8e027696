package dev.noneops.core.node;

/** What was done to a removed item. */
public enum TeardownAction {
  UNIT_STOPPED,
  UNIT_DISABLED,
  UNIT_FILE_REMOVED,
  SYSTEMD_RELOADED,
  CONFIG_FILE_REMOVED,
  /** A file or link that was at a shared path before the node came was put back as it was. */
  ORIGINAL_RESTORED,
  DIRECTORY_REMOVED,
  SHIM_KILLED,
  CGROUP_KILLED,
  CGROUP_REMOVED,
  UNMOUNTED,
  TREE_REMOVED,
  /** A symlink inside a removed tree was removed as a link; its target was not followed. */
  SYMLINK_REMOVED
}
