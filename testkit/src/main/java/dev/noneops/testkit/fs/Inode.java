package dev.noneops.testkit.fs;

import dev.noneops.ports.files.FileType;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * One simulated inode with a volatile state (what the running system sees) and a durable state
 * (what survives a power loss). Content arrays are never changed in place, so the two states may
 * share them.
 *
 * <p>Times follow the kernel: creation sets the change and modification times; a content change
 * (a write, a truncate, an entry added to or removed from a directory) sets both; a metadata change
 * (chmod, chown, being renamed) sets the change time only. Reading changes neither.
 */
final class Inode {
  final SimSuperblock fs;
  final long ino;
  final FileType type;
  final String linkTarget;
  final int deviceMajor;
  final int deviceMinor;

  int mode;
  int uid;
  int gid;
  int durableMode;
  int durableUid;
  int durableGid;

  byte[] data = new byte[0];
  byte[] durableData = new byte[0];

  long ctime;
  long mtime;
  long durableCtime;
  long durableMtime;

  final TreeMap<String, Inode> entries;
  TreeMap<String, Inode> durableEntries;

  Inode(
      SimSuperblock fs,
      FileType type,
      int mode,
      int uid,
      int gid,
      String linkTarget,
      int deviceMajor,
      int deviceMinor) {
    this.fs = fs;
    this.ino = fs.nextInode();
    this.type = type;
    this.linkTarget = linkTarget;
    this.deviceMajor = deviceMajor;
    this.deviceMinor = deviceMinor;
    this.mode = mode;
    this.uid = uid;
    this.gid = gid;
    this.durableMode = mode;
    this.durableUid = uid;
    this.durableGid = gid;
    long now = fs.changeClock.tick();
    this.ctime = now;
    this.mtime = now;
    this.durableCtime = now;
    this.durableMtime = now;
    if (type == FileType.DIRECTORY) {
      entries = new TreeMap<>();
      durableEntries = new TreeMap<>();
    } else {
      entries = null;
      durableEntries = null;
    }
  }

  boolean isDirectory() {
    return type == FileType.DIRECTORY;
  }

  long size() {
    return switch (type) {
      case REGULAR -> data.length;
      case DIRECTORY -> 4096;
      case SYMLINK -> linkTarget.getBytes(StandardCharsets.UTF_8).length;
      default -> 0;
    };
  }

  /** Replaces the whole content (an {@code O_TRUNC} open and a write). */
  void replaceData(byte[] content) {
    data = content;
    contentChanged();
  }

  /** Sets the permission bits ({@code chmod}). */
  void changeMode(int newMode) {
    mode = newMode;
    metadataChanged();
  }

  /** Sets the owner ({@code chown}). */
  void changeOwner(int newUid, int newGid) {
    uid = newUid;
    gid = newGid;
    metadataChanged();
  }

  /** Adds or replaces a directory entry; the directory's content changes. */
  void putEntry(String name, Inode child) {
    entries.put(name, child);
    contentChanged();
  }

  /** Removes a directory entry, if present; the directory's content changes. */
  Inode removeEntry(String name) {
    Inode removed = entries.remove(name);
    if (removed != null) {
      contentChanged();
    }
    return removed;
  }

  /** The content changed: both times move. */
  void contentChanged() {
    long now = fs.changeClock.tick();
    mtime = now;
    ctime = now;
  }

  /** Only metadata changed (mode, owner, name): the change time moves. */
  void metadataChanged() {
    ctime = fs.changeClock.tick();
  }

  /** fsync of this inode: its data and metadata become durable. */
  void syncSelf() {
    durableData = data;
    durableMode = mode;
    durableUid = uid;
    durableGid = gid;
    durableCtime = ctime;
    durableMtime = mtime;
  }

  /**
   * fsync of this directory: its entries (which name leads to which inode) become durable, and the
   * change time of each entry that has no pending mode or owner change (a rename's). An entry's
   * mode and owner become durable only with an fsync of the entry itself.
   */
  void syncDirectory() {
    syncSelf();
    durableEntries = new TreeMap<>(entries);
    for (Inode child : entries.values()) {
      if (child.mode == child.durableMode
          && child.uid == child.durableUid
          && child.gid == child.durableGid) {
        child.durableCtime = child.ctime;
      }
    }
  }

  /** Power loss: the volatile state becomes the durable one. */
  void revertToDurable() {
    data = durableData;
    mode = durableMode;
    uid = durableUid;
    gid = durableGid;
    ctime = durableCtime;
    mtime = durableMtime;
    if (entries != null) {
      entries.clear();
      entries.putAll(durableEntries);
    }
  }
}
