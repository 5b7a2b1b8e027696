package dev.noneops.core.testing;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A minimal in-memory {@link HostFiles} for core's unit tests: regular files, directories and
 * symlinks with modes, inode numbers and change times (a new inode for every durable write, a new
 * change time for every change, as a kernel with fine-grained timestamps gives them), and the
 * errors core relies on. Reads of file content are recorded. No durability model (the acceptance
 * tests' simulated host has one).
 */
public final class MemoryHostFiles implements HostFiles {
  private record Entry(FileType type, byte[] content, String target, int mode, long ino, long ctime, long mtime) {
    Entry withMode(int newMode, long now) {
      return new Entry(type, content, target, newMode, ino, now, mtime);
    }

    Entry renamed(long now) {
      return new Entry(type, content, target, mode, ino, now, mtime);
    }
  }

  private final TreeMap<Path, Entry> entries = new TreeMap<>();
  private final List<Path> contentReads = new ArrayList<>();
  private int writes;
  private long nextIno = 2;
  private long clock = 1_767_225_600_000_000_000L;
  private boolean coarse;

  public MemoryHostFiles() {
    entries.put(Path.of("/"), entry(FileType.DIRECTORY, null, null, 0755));
  }

  /**
   * While {@code coarse}, every change gets the same time, as changes within one tick of a coarse
   * filesystem clock do; otherwise every change gets a later time than the one before.
   */
  public synchronized void coarseClock(boolean coarse) {
    this.coarse = coarse;
  }

  private long tick() {
    return coarse ? clock : ++clock;
  }

  private Entry entry(FileType type, byte[] content, String target, int mode) {
    long now = tick();
    return new Entry(type, content, target, mode, nextIno++, now, now);
  }

  /** Every path whose content was read ({@link #read} or {@link #openRead}), in order. */
  public synchronized List<Path> contentReads() {
    return List.copyOf(contentReads);
  }

  /**
   * Changes a regular file's content behind its metadata's back (media corruption): size, inode
   * and times stay. The new content must have the old size.
   */
  public synchronized void corruptContent(Path path, byte[] content) throws IOException {
    Entry e = follow(path);
    if (e.type() != FileType.REGULAR || e.content().length != content.length) {
      throw new IllegalArgumentException("corruption keeps a regular file's size: " + path);
    }
    entries.put(path, new Entry(e.type(), content.clone(), null, e.mode(), e.ino(), e.ctime(), e.mtime()));
  }

  /** How many mutating calls were made. */
  public int writes() {
    return writes;
  }

  /** Every path and a short description of its entry, sorted. */
  public synchronized TreeMap<String, String> tree() {
    TreeMap<String, String> out = new TreeMap<>();
    entries.forEach((p, e) -> out.put(p.toString(), switch (e.type()) {
      case DIRECTORY -> "dir " + String.format("%04o", e.mode());
      case SYMLINK -> "link -> " + e.target();
      default -> "file " + String.format("%04o", e.mode()) + " " + new String(e.content(), java.nio.charset.StandardCharsets.UTF_8);
    }));
    return out;
  }

  @Override
  public synchronized Optional<FileMeta> lstat(Path path) throws IOException {
    Entry e = entries.get(abs(path));
    if (e == null) {
      return Optional.empty();
    }
    long size = switch (e.type()) {
      case REGULAR -> e.content().length;
      case SYMLINK -> e.target().length();
      default -> 4096;
    };
    return Optional.of(new FileMeta(path, e.type(), e.mode(), 0, 0, size, 1, e.ino(), 1, e.ctime(), e.mtime()));
  }

  @Override
  public synchronized byte[] read(Path path) throws IOException {
    Entry e = follow(path);
    contentReads.add(path);
    if (e.type() != FileType.REGULAR) {
      throw new HostIOException(Errno.EISDIR, "read", path.toString());
    }
    return e.content().clone();
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    return new ByteArrayInputStream(read(path));
  }

  @Override
  public synchronized List<String> list(Path dir) throws IOException {
    Entry e = follow(dir);
    if (e.type() != FileType.DIRECTORY) {
      throw new HostIOException(Errno.ENOTDIR, "list", dir.toString());
    }
    List<String> names = new ArrayList<>();
    for (Path p : entries.keySet()) {
      if (dir.equals(p.getParent())) {
        names.add(p.getFileName().toString());
      }
    }
    names.sort(null);
    return names;
  }

  @Override
  public synchronized String readLink(Path link) throws IOException {
    Entry e = entries.get(abs(link));
    if (e == null) {
      throw new HostIOException(Errno.ENOENT, "readlink", link.toString());
    }
    if (e.type() != FileType.SYMLINK) {
      throw new HostIOException(Errno.EINVAL, "readlink", link.toString());
    }
    return e.target();
  }

  @Override
  public synchronized long writeDurably(Path path, InputStream content, int mode) throws IOException {
    requireParentDir(path, "write");
    Entry existing = entries.get(path);
    if (existing != null && existing.type() == FileType.DIRECTORY) {
      throw new HostIOException(Errno.EISDIR, "write", path.toString());
    }
    byte[] bytes = content.readAllBytes();
    content.close();
    entries.put(path, entry(FileType.REGULAR, bytes, null, mode));
    writes++;
    return bytes.length;
  }

  @Override
  public synchronized void createDirectories(Path dir, int mode) throws IOException {
    abs(dir);
    List<Path> missing = new ArrayList<>();
    for (Path p = dir; p != null; p = p.getParent()) {
      Entry e = entries.get(p);
      if (e != null) {
        if (e.type() != FileType.DIRECTORY) {
          throw new HostIOException(Errno.ENOTDIR, "mkdir", p.toString());
        }
        break;
      }
      missing.add(0, p);
    }
    for (Path p : missing) {
      entries.put(p, entry(FileType.DIRECTORY, null, null, mode));
      writes++;
    }
  }

  @Override
  public synchronized void symlinkDurably(Path link, String target) throws IOException {
    requireParentDir(link, "symlink");
    Entry existing = entries.get(link);
    if (existing != null && existing.type() != FileType.SYMLINK) {
      throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
    }
    entries.put(link, entry(FileType.SYMLINK, null, target, 0777));
    writes++;
  }

  @Override
  public synchronized void renameDurably(Path from, Path to) throws IOException {
    Entry e = entries.get(abs(from));
    if (e == null) {
      throw new HostIOException(Errno.ENOENT, "rename", from.toString());
    }
    requireParentDir(to, "rename");
    Entry target = entries.get(to);
    if (target != null && target.type() == FileType.DIRECTORY && !list(to).isEmpty()) {
      throw new HostIOException(Errno.ENOTEMPTY, "rename", to.toString());
    }
    TreeMap<Path, Entry> moved = new TreeMap<>();
    for (var it = entries.entrySet().iterator(); it.hasNext(); ) {
      var entry = it.next();
      if (entry.getKey().startsWith(from)) {
        Entry value = entry.getKey().equals(from) ? entry.getValue().renamed(tick()) : entry.getValue();
        moved.put(to.resolve(from.relativize(entry.getKey())), value);
        it.remove();
      }
    }
    entries.putAll(moved);
    writes++;
  }

  @Override
  public synchronized void removeDurably(Path path) throws IOException {
    delete(path);
  }

  @Override
  public synchronized void delete(Path path) throws IOException {
    Entry e = entries.get(abs(path));
    if (e == null) {
      throw new HostIOException(Errno.ENOENT, "unlink", path.toString());
    }
    if (e.type() == FileType.DIRECTORY && !list(path).isEmpty()) {
      throw new HostIOException(Errno.ENOTEMPTY, "rmdir", path.toString());
    }
    entries.remove(path);
    writes++;
  }

  @Override
  public void syncDirectory(Path dir) {}

  @Override
  public synchronized void chmod(Path path, int mode) throws IOException {
    Entry e = entries.get(abs(path));
    if (e == null) {
      throw new HostIOException(Errno.ENOENT, "chmod", path.toString());
    }
    entries.put(path, e.withMode(mode, tick()));
    writes++;
  }

  @Override
  public void chown(Path path, int uid, int gid) {}

  /** {@inheritDoc} Memory loses nothing, so this is {@link #chmod}. */
  @Override
  public void chmodDurably(Path path, int mode) throws IOException {
    chmod(path, mode);
  }

  /** {@inheritDoc} Memory loses nothing, so this is {@link #chown}. */
  @Override
  public void chownDurably(Path path, int uid, int gid) {
    chown(path, uid, gid);
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) {
    return Optional.of(() -> {});
  }

  private Entry follow(Path path) throws IOException {
    Entry e = entries.get(abs(path));
    for (int hops = 0; e != null && e.type() == FileType.SYMLINK && hops < 40; hops++) {
      path = path.getParent().resolve(e.target()).normalize();
      e = entries.get(path);
    }
    if (e == null) {
      throw new HostIOException(Errno.ENOENT, "open", path.toString());
    }
    return e;
  }

  private void requireParentDir(Path path, String op) throws IOException {
    Entry parent = entries.get(abs(path).getParent());
    if (parent == null) {
      throw new HostIOException(Errno.ENOENT, op, path.toString());
    }
    if (parent.type() != FileType.DIRECTORY) {
      throw new HostIOException(Errno.ENOTDIR, op, path.toString());
    }
  }

  private static Path abs(Path path) {
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("path must be absolute: " + path);
    }
    return path;
  }
}
