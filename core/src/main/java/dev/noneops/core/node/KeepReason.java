package dev.noneops.core.node;

/** Why something was kept. */
public enum KeepReason {
  /** A unit or drop-in without this node's marker line. */
  FOREIGN_UNIT(false),
  /** A container shim of another runtime (another containerd address or namespace). */
  FOREIGN_SHIM(false),
  /** A shared file whose content differs from what this node wrote. */
  CHANGED_BY_OTHERS(false),
  /** A shared file this node has no ownership record of. */
  NOT_RECORDED(false),
  /** A path this teardown would remove is a symlink; it was neither followed nor removed. */
  SYMLINK_NOT_FOLLOWED(false),
  /**
   * A mount at a data directory itself (a dedicated disk for {@code /var/lib/kubelet}, say):
   * this node did not create it, so it stays mounted; what lay on it was removed.
   */
  FOREIGN_MOUNT(false),
  /**
   * Entries of the CNI configuration or state directories that were there before the node
   * came (a foreign runtime's): the host's, left as they were.
   */
  FROM_BEFORE_THE_NODE(false),
  /**
   * containerd's data directory, whose metadata holds namespaces other than the node's (Docker's
   * {@code moby} on the node's containerd, say): their data shares the database and the
   * snapshot store with the node's, so the directory is kept whole and the node with it.
   */
  OTHER_NAMESPACES(true),
  /**
   * A version of the node (and a link of the layout to it) whose shim binary running shims of
   * other runtimes execute (Docker's {@code moby} on the node's containerd, say), with the
   * runc they use: a containerd started later needs both to manage their containers, so the
   * version stays whole, and the node with it, until those shims are gone.
   */
  USED_BY_FOREIGN_SHIMS(true),
  /** A directory still holding entries that were kept for one of the other reasons. */
  HOLDS_KEPT_ENTRIES(false),
  /**
   * A pod cgroup hierarchy that was not looked at: the host offers no cgroup v2 hierarchy (none
   * is mounted, or none was given to a host whose proc root is moved).
   */
  NO_CGROUP_HIERARCHY(false),
  /** A mount below a data directory that could not be unmounted; its subtree is untouched. */
  STILL_MOUNTED(true),
  /** A unit, process or cgroup of this node that did not stop by the deadline. */
  STILL_RUNNING(true),
  /** A host operation failed; the error is in the detail. */
  FAILED(true);

  private final boolean blocksCompletion;

  KeepReason(boolean blocksCompletion) {
    this.blocksCompletion = blocksCompletion;
  }

  /** Whether a thing kept for this reason leaves the teardown incomplete. */
  public boolean blocksCompletion() {
    return blocksCompletion;
  }
}
