package dev.noneops.testkit.fs;

/**
 * One simulated mount: a filesystem (or a subtree of one, for a bind mount) attached at a
 * canonical path.
 */
final class SimMount {
  final long id;
  final long parentId;
  final SimSuperblock fs;
  final Inode root;
  final String rootInFs;
  final String mountPoint;
  final String fsType;
  final String source;
  final boolean readOnly;
  final boolean survivesReboot;
  boolean busy;

  SimMount(
      long id,
      long parentId,
      SimSuperblock fs,
      Inode root,
      String rootInFs,
      String mountPoint,
      String fsType,
      String source,
      boolean readOnly,
      boolean survivesReboot) {
    this.id = id;
    this.parentId = parentId;
    this.fs = fs;
    this.root = root;
    this.rootInFs = rootInFs;
    this.mountPoint = mountPoint;
    this.fsType = fsType;
    this.source = source;
    this.readOnly = readOnly;
    this.survivesReboot = survivesReboot;
  }

  String options() {
    return (readOnly ? "ro" : "rw") + ",relatime";
  }
}
