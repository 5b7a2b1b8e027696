package dev.noneops.testkit.fs;

import dev.noneops.ports.files.FileType;
import java.util.TreeMap;

/**
 * One simulated inode with a volatile state (what the running system sees) and a durable state
 * (what survives a power loss). Content arrays are never changed in place, so the two states may
 * share them.
 */
final class Inode {
  final SimFilesystem fs;
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

  final TreeMap<String, Inode> entries;
  TreeMap<String, Inode> durableEntries;

  Inode(SimFilesystem fs, FileType type, int mode, int uid, int gid, String linkTarget, int deviceMajor, int deviceMinor) {
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
      case SYMLINK -> linkTarget.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      default -> 0;
    };
  }

  /** fsync of this inode: its data and metadata become durable. */
  void syncSelf() {
    durableData = data;
    durableMode = mode;
    durableUid = uid;
    durableGid = gid;
  }

  /** fsync of this directory: its entries, and the mode and owner of each entry, become durable. */
  void syncDirectory() {
    syncSelf();
    durableEntries = new TreeMap<>(entries);
    for (Inode child : entries.values()) {
      child.durableMode = child.mode;
      child.durableUid = child.uid;
      child.durableGid = child.gid;
    }
  }

  /** Power loss: the volatile state becomes the durable one. */
  void revertToDurable() {
    data = durableData;
    mode = durableMode;
    uid = durableUid;
    gid = durableGid;
    if (entries != null) {
      entries.clear();
      entries.putAll(durableEntries);
    }
  }
}
