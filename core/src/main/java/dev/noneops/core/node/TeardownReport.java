package dev.noneops.core.node;

import dev.noneops.core.node.TeardownReport.Action;
import dev.noneops.core.node.TeardownReport.Reason;
import dev.noneops.core.node.internal.teardown.KeepReason;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a teardown did: everything it removed (or stopped, killed, unmounted), and everything it
 * kept with the reason. Foreign things a teardown deliberately left alone are listed as kept too,
 * so an operator sees that they were recognised, not overlooked.
 *
 * @param removed what the teardown removed, stopped, killed or unmounted, in order
 * @param kept what it left in place, each with why
 */
public record TeardownReport(List<Removed> removed, List<Kept> kept) {

  /** What was done to a removed item. */
  public enum Action {
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

  /** Why something was kept. */
  public enum Reason {
    /** A unit or drop-in without this node's marker line. */
    FOREIGN_UNIT,
    /** A container shim of another runtime (another containerd address or namespace). */
    FOREIGN_SHIM,
    /** A shared file whose content differs from what this node wrote. */
    CHANGED_BY_OTHERS,
    /** A shared file this node has no ownership record of. */
    NOT_RECORDED,
    /** A path this teardown would remove is a symlink; it was neither followed nor removed. */
    SYMLINK_NOT_FOLLOWED,
    /**
     * A mount at a data directory itself (a dedicated disk for {@code /var/lib/kubelet}, say):
     * this node did not create it, so it stays mounted; what lay on it was removed.
     */
    FOREIGN_MOUNT,
    /**
     * Entries of the CNI configuration or state directories that were there before the node
     * came (a foreign runtime's): the host's, left as they were.
     */
    FROM_BEFORE_THE_NODE,
    /**
     * containerd's data directory, whose metadata holds namespaces other than the node's (Docker's
     * {@code moby} on the node's containerd, say): their data shares the database and the
     * snapshot store with the node's, so the directory is kept whole and the node with it.
     */
    OTHER_NAMESPACES,
    /**
     * A version of the node (and a link of the layout to it) whose shim binary running shims of
     * other runtimes execute (Docker's {@code moby} on the node's containerd, say), with the
     * runc they use: a containerd started later needs both to manage their containers, so the
     * version stays whole, and the node with it, until those shims are gone.
     */
    USED_BY_FOREIGN_SHIMS,
    /** A directory still holding entries that were kept for one of the other reasons. */
    HOLDS_KEPT_ENTRIES,
    /**
     * A pod cgroup hierarchy that was not looked at: the host offers no cgroup v2 hierarchy (none
     * is mounted, or none was given to a host whose proc root is moved).
     */
    NO_CGROUP_HIERARCHY,
    /** A mount below a data directory that could not be unmounted; its subtree is untouched. */
    STILL_MOUNTED,
    /** A unit, process or cgroup of this node that did not stop by the deadline. */
    STILL_RUNNING,
    /** A host operation failed; the error is in the detail. */
    FAILED;

    /** Whether a thing kept for this reason leaves the teardown incomplete. */
    public boolean blocksCompletion() {
      return KeepReason.valueOf(name()).blocksCompletion();
    }
  }

  /** One thing removed, stopped, killed or unmounted. */
  public record Removed(Action action, String subject, String detail) {
    public Removed {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return action + " " + subject + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  /** One thing kept, and why. */
  public record Kept(Reason reason, String subject, String detail) {
    public Kept {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return "KEPT " + subject + ": " + reason + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  public TeardownReport {
    removed = List.copyOf(removed);
    kept = List.copyOf(kept);
  }

  /** The report of what the teardown's steps logged. */
  static TeardownReport of(TeardownLog log) {
    return new TeardownReport(
        log.removed().stream()
            .map(r -> new Removed(Action.valueOf(r.action().name()), r.subject(), r.detail()))
            .toList(),
        log.kept().stream()
            .map(k -> new Kept(Reason.valueOf(k.reason().name()), k.subject(), k.detail()))
            .toList());
  }

  /** A report of nothing done and nothing kept. */
  public static TeardownReport empty() {
    return new TeardownReport(List.of(), List.of());
  }

  /**
   * Whether nothing of this node was left behind: no kept item blocks completion. Foreign things
   * that were kept on purpose do not count.
   */
  public boolean complete() {
    return kept.stream().noneMatch(k -> k.reason().blocksCompletion());
  }

  /** The kept items that block completion. */
  public List<Kept> blocking() {
    return kept.stream().filter(k -> k.reason().blocksCompletion()).toList();
  }

  /** The kept items with {@code reason}. */
  public List<Kept> kept(Reason reason) {
    return kept.stream().filter(k -> k.reason() == reason).toList();
  }

  /** The removed items with {@code action}. */
  public List<Removed> removed(Action action) {
    return removed.stream().filter(r -> r.action() == action).toList();
  }

  /** This report followed by {@code next}, as for the steps of one reset run in order. */
  public TeardownReport plus(TeardownReport next) {
    List<Removed> r = new ArrayList<>(removed);
    r.addAll(next.removed);
    List<Kept> k = new ArrayList<>(kept);
    k.addAll(next.kept);
    return new TeardownReport(r, k);
  }

  /** One line per item: removed items first, then kept ones. */
  @Override
  public String toString() {
    List<String> lines = new ArrayList<>();
    removed.forEach(r -> lines.add(r.toString()));
    kept.forEach(k -> lines.add(k.toString()));
    return lines.isEmpty() ? "nothing to do" : String.join("\n", lines);
  }
}
