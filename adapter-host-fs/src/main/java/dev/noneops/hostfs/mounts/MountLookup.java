package dev.noneops.hostfs.mounts;

import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.ports.mounts.MountEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Finds the mount an existing path lives on: the mount whose mount point is the longest prefix of
 * the path, with its parent directory resolved through symlinks (the last component is not
 * followed, as {@code lstat} does not follow it). Where mounts are stacked on one mount point,
 * the topmost wins.
 *
 * <p>The mount table is re-read on every lookup, because a mount that appeared a moment ago must
 * be seen by a walker that may never cross one; only the parsing is cached, for as long as the
 * file's bytes stay the same.
 */
public final class MountLookup implements MountIdSource {

  private final Path mountInfo;
  private byte[] cachedContent;
  private List<MountEntry> cachedEntries;

  public MountLookup(Path mountInfo) {
    this.mountInfo = Objects.requireNonNull(mountInfo, "mountInfo");
  }

  /** The mount id of the mount holding {@code path}, which must exist. */
  @Override
  public long mountIdOf(Path path) throws IOException {
    Path resolved = resolveParent(path);
    return mountOf(resolved, table()).mountId();
  }

  /** The mount holding an already-resolved absolute path. */
  static MountEntry mountOf(Path resolved, List<MountEntry> entries) throws IOException {
    Path bestMountPoint = null;
    for (MountEntry entry : entries) {
      Path mountPoint = entry.mountPoint();
      if (resolved.startsWith(mountPoint)
          && (bestMountPoint == null
              || mountPoint.getNameCount() > bestMountPoint.getNameCount())) {
        bestMountPoint = mountPoint;
      }
    }
    if (bestMountPoint == null) {
      throw new IOException("no mount in the mount table holds " + resolved);
    }
    List<MountEntry> stacked = new ArrayList<>();
    for (MountEntry entry : entries) {
      if (entry.mountPoint().equals(bestMountPoint)) {
        stacked.add(entry);
      }
    }
    return topmost(stacked);
  }

  /** Of mounts stacked on one mount point, the one no other is mounted on (the last such). */
  private static MountEntry topmost(List<MountEntry> stacked) {
    Set<Long> coveredIds = new HashSet<>();
    for (MountEntry entry : stacked) {
      coveredIds.add(entry.parentId());
    }
    MountEntry top = stacked.get(stacked.size() - 1);
    for (MountEntry entry : stacked) {
      if (!coveredIds.contains(entry.mountId())) {
        top = entry;
      }
    }
    return top;
  }

  private static Path resolveParent(Path path) throws IOException {
    Path absolute = path.toAbsolutePath();
    Path parent = absolute.getParent();
    Path name = absolute.getFileName();
    try {
      if (parent == null
          || name == null
          || name.toString().equals(".")
          || name.toString().equals("..")) {
        return absolute.toRealPath();
      }
      return parent.toRealPath().resolve(name);
    } catch (IOException e) {
      throw IoErrors.translate(e, "realpath", absolute);
    }
  }

  private synchronized List<MountEntry> table() throws IOException {
    byte[] content;
    try {
      content = Files.readAllBytes(mountInfo);
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", mountInfo);
    }
    if (cachedEntries == null || !Arrays.equals(content, cachedContent)) {
      cachedEntries = MountInfoParser.parse(content);
      cachedContent = content;
    }
    return cachedEntries;
  }
}
