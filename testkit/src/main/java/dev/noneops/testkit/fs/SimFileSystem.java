package dev.noneops.testkit.fs;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.UnmountFlag;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.time.VirtualClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The simulated kernel's file side: a tree of inodes on filesystems joined by mounts, strict like
 * the kernel (same errnos), with the durability model of the design's section 6.
 *
 * <p><b>Durability model.</b> Every inode has a volatile state and a durable state. A file's data,
 * mode and owner become durable when the file is fsynced; a directory's entries (creates, renames,
 * unlinks, symlinks) when the directory is fsynced, which does not make a {@code chmod} or
 * {@code chown} of an entry durable: only an fsync of the entry itself does. Fsyncing a newly
 * created file also makes its own name durable when the directory has no durable entry of that
 * name yet (as ext4's journal does), which is why a crash inside a durable write can leave the
 * temp file behind. {@link #crash()} throws the volatile state away; a tmpfs keeps nothing.
 *
 * <p><b>Times.</b> Every inode has a change time and a modification time as {@code lstat} reports
 * them, taken from the host's wall clock and strictly increasing (fine-grained timestamps): a
 * write, truncate or directory entry change moves both, a chmod, chown or rename moves the change
 * time, a read moves neither. {@link #corruptContent} alters content behind the metadata's back.
 *
 * <p>Methods named like syscalls ({@link #writeVolatile}, {@link #fsync}, {@link #rename},
 * {@link #unlink}) let tests act as careless programs; {@code seed*} methods build fixtures that
 * are already durable. The {@link HostFiles} port over this model is {@link SimHostFiles}.
 *
 * <p>Step names of the multi-step operations, for step-specific faults: a durable write is
 * {@code create-temp}, {@code write}, {@code fsync-file}, {@code rename}, {@code fsync-dir}; a
 * symlink flip {@code create-temp}, {@code rename}, {@code fsync-dir}; a directory creation
 * {@code mkdir}, {@code fsync-dir} per created level; a removal {@code unlink}, {@code fsync-dir};
 * a durable rename {@code rename}, {@code fsync-dir} (each parent); a durable mode or owner change
 * {@code chmod} or {@code chown}, {@code fsync-file}.
 */
public final class SimFileSystem {
  private static final int MAX_SYMLINKS = 40;

  private final PortGate gate;
  private final List<SimMount> mounts = new ArrayList<>();
  private final Map<Inode, Holder> locks = new IdentityHashMap<>();
  private final ChangeClock changeClock;
  private final SimSuperblock rootFs;
  private long nextMountId = 21;
  private int nextAnonMinor = 40;
  private long tempCounter;

  /** A file system whose inode times start at the virtual clock's epoch and advance only with changes. */
  public SimFileSystem(PortGate gate) {
    this(gate, () -> VirtualClock.EPOCH.getEpochSecond() * 1_000_000_000L);
  }

  /**
   * A file system whose inode change and modification times come from {@code wallNanos} (the
   * host's wall clock in nanoseconds since the epoch), strictly increasing with every change.
   */
  public SimFileSystem(PortGate gate, LongSupplier wallNanos) {
    this.gate = gate;
    this.changeClock = new ChangeClock(wallNanos);
    this.rootFs = new SimSuperblock(8, 1, "ext4", false, changeClock);
    mounts.add(new SimMount(
        nextMountId++, 1, rootFs, rootFs.root, "/", "/", "ext4", "/dev/sda1", false, true));
  }

  // ---------------------------------------------------------------- path resolution

  /** One resolved path: the directory holding the entry, the entry's name and inode (null when absent). */
  private record Located(String path, Frame parent, String name, Inode inode, SimMount mount) {
    boolean exists() {
      return inode != null;
    }

    boolean isMountRoot() {
      return inode != null && mount.root == inode && mount.mountPoint.equals(path);
    }
  }

  private record Frame(String path, Inode inode, SimMount mount) {}

  private static String requireAbsolute(Path path) {
    if (path == null) {
      throw new IllegalArgumentException("path must not be null");
    }
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("host paths must be absolute: '" + path + "'");
    }
    return path.toString();
  }

  private Located locate(Path path, boolean followFinal, String op) throws HostIOException {
    String shown = requireAbsolute(path);
    Deque<String> pending = new ArrayDeque<>();
    for (Path name : path) {
      pending.add(name.toString());
    }
    Deque<Frame> stack = new ArrayDeque<>();
    stack.push(rootFrame());
    int symlinks = 0;
    while (!pending.isEmpty()) {
      String c = pending.pollFirst();
      boolean last = pending.isEmpty();
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (stack.size() > 1) {
          stack.pop();
        }
        continue;
      }
      Frame cur = stack.peek();
      if (!cur.inode().isDirectory()) {
        throw new HostIOException(Errno.ENOTDIR, op, shown);
      }
      String childPath = (cur.path().equals("/") ? "" : cur.path()) + "/" + c;
      Inode child = cur.inode().entries.get(c);
      if (child == null) {
        if (last) {
          return new Located(childPath, cur, c, null, cur.mount());
        }
        throw new HostIOException(Errno.ENOENT, op, shown);
      }
      if (child.type == FileType.SYMLINK && (!last || followFinal)) {
        if (++symlinks > MAX_SYMLINKS) {
          throw new HostIOException(Errno.ELOOP, op, shown);
        }
        Path target = Path.of(child.linkTarget);
        List<String> names = new ArrayList<>();
        for (Path n : target) {
          names.add(n.toString());
        }
        for (int i = names.size() - 1; i >= 0; i--) {
          pending.addFirst(names.get(i));
        }
        if (target.isAbsolute()) {
          stack.clear();
          stack.push(rootFrame());
        }
        if (pending.isEmpty()) {
          // a link to "/" resolves to the root itself
          return frameAsLocated(stack);
        }
        continue;
      }
      SimMount mount = cur.mount();
      Inode node = child;
      SimMount top = topMountAt(childPath);
      if (top != null) {
        node = top.root;
        mount = top;
      }
      if (last) {
        return new Located(childPath, cur, c, node, mount);
      }
      stack.push(new Frame(childPath, node, mount));
    }
    return frameAsLocated(stack);
  }

  private static Located frameAsLocated(Deque<Frame> stack) {
    Frame self = stack.pop();
    Frame parent = stack.peek();
    String name =
        self.path().equals("/") ? "" : self.path().substring(self.path().lastIndexOf('/') + 1);
    return new Located(self.path(), parent, name, self.inode(), self.mount());
  }

  private Frame rootFrame() {
    SimMount root = topMountAt("/");
    return new Frame("/", root.root, root);
  }

  private SimMount topMountAt(String canonical) {
    SimMount top = null;
    for (SimMount m : mounts) {
      if (m.mountPoint.equals(canonical)) {
        top = m;
      }
    }
    return top;
  }

  private boolean hasMountAtOrBelow(String canonical) {
    String prefix = canonical.equals("/") ? "/" : canonical + "/";
    for (SimMount m : mounts) {
      if (m.mountPoint.equals(canonical) || m.mountPoint.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private Located existing(Path path, boolean follow, String op) throws HostIOException {
    Located l = locate(path, follow, op);
    if (!l.exists()) {
      throw new HostIOException(Errno.ENOENT, op, path.toString());
    }
    return l;
  }

  private Located existingParentOf(Path path, String op) throws HostIOException {
    Located l = locate(path, false, op);
    if (l.parent() == null) {
      throw new HostIOException(Errno.EBUSY, op, path.toString());
    }
    return l;
  }

  private static void requireWritable(SimMount mount, String op, Path path) throws HostIOException {
    if (mount.readOnly) {
      throw new HostIOException(Errno.EROFS, op, path.toString());
    }
  }

  private static void requireMode(int mode) {
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException(
          "mode must be within 07777: " + Integer.toOctalString(mode));
    }
  }

  // ---------------------------------------------------------------- reading

  /** {@code lstat(2)}: the final symlink is not followed; a mount point shows the mounted root. */
  public Optional<FileMeta> lstat(Path path) throws IOException {
    Located l;
    try {
      l = locate(path, false, "lstat");
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        return Optional.empty();
      }
      throw e;
    }
    return l.exists() ? Optional.of(meta(path, l)) : Optional.empty();
  }

  /** {@code stat(2)}: like {@link #lstat} but following symlinks; empty when absent or dangling. */
  public Optional<FileMeta> stat(Path path) throws IOException {
    try {
      Located l = locate(path, true, "stat");
      return l.exists() ? Optional.of(meta(path, l)) : Optional.empty();
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static FileMeta meta(Path shown, Located l) {
    Inode i = l.inode();
    return new FileMeta(
        shown,
        i.type,
        i.mode,
        i.uid,
        i.gid,
        i.size(),
        i.fs.device(),
        i.ino,
        l.mount().id,
        i.ctime,
        i.mtime);
  }

  /** The content of a regular file, following symlinks. */
  public byte[] read(Path path) throws IOException {
    Inode i = existing(path, true, "read").inode();
    return switch (i.type) {
      case REGULAR -> i.data.clone();
      case DIRECTORY -> throw new HostIOException(Errno.EISDIR, "read", path.toString());
      case CHAR_DEVICE, BLOCK_DEVICE -> new byte[0];
      default -> throw new HostIOException(Errno.EINVAL, "read", path.toString());
    };
  }

  /** The sorted entry names of a directory, following symlinks. */
  public List<String> list(Path dir) throws IOException {
    Inode i = existing(dir, true, "opendir").inode();
    if (!i.isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "opendir", dir.toString());
    }
    return List.copyOf(i.entries.keySet());
  }

  /** The verbatim target of a symlink; EINVAL for anything else. */
  public String readLink(Path link) throws IOException {
    Inode i = existing(link, false, "readlink").inode();
    if (i.type != FileType.SYMLINK) {
      throw new HostIOException(Errno.EINVAL, "readlink", link.toString());
    }
    return i.linkTarget;
  }

  /** The canonical path of {@code path} with every symlink resolved ({@code realpath(3)}). */
  public Path realPath(Path path) throws IOException {
    return Path.of(existing(path, true, "realpath").path());
  }

  // ---------------------------------------------------------------- durable operations (the
  // port's)

  /** The port's durable write: temp file, write, fsync, rename, fsync of the directory. */
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    return writeDurably(path, content, mode, written -> {});
  }

  /** Inspects what a durable write put into its temp file before the rename, and may refuse it. */
  @FunctionalInterface
  public interface BeforeRename {
    void check(byte[] written) throws IOException;
  }

  /**
   * A durable write that lets {@code check} refuse the fsynced temp file before it is renamed into
   * place (a download verifying its checksum); on refusal the temp file is removed.
   */
  public long writeDurably(Path path, InputStream content, int mode, BeforeRename check)
      throws IOException {
    requireMode(mode);
    Located target = existingParentOf(path, "write");
    if (target.exists() && target.inode().isDirectory()) {
      throw new HostIOException(Errno.EISDIR, "write", path.toString());
    }
    requireWritable(target.mount(), "write", path);
    gate.firstStep("create-temp");
    Inode dir = target.parent().inode();
    String tempName = tempName(target.name());
    Inode temp = new Inode(dir.fs, FileType.REGULAR, mode, 0, 0, null, 0, 0);
    dir.putEntry(tempName, temp);
    try {
      gate.step("write");
      byte[] bytes = content.readAllBytes();
      temp.replaceData(bytes);
      gate.step("fsync-file");
      syncFileAndNewName(dir, tempName, temp);
      check.check(bytes.clone());
      gate.step("rename");
      dir.removeEntry(tempName);
      temp.metadataChanged();
      dir.putEntry(target.name(), temp);
      gate.step("fsync-dir");
      dir.syncDirectory();
      return bytes.length;
    } catch (IOException | RuntimeException e) {
      if (dir.entries.get(tempName) == temp) {
        dir.removeEntry(tempName);
      }
      throw e;
    }
  }

  /** The port's durable mkdir -p. */
  public void createDirectories(Path dir, int mode) throws IOException {
    requireMode(mode);
    requireAbsolute(dir);
    List<Path> prefixes = new ArrayList<>();
    for (Path p = dir.normalize(); p != null && p.getParent() != null; p = p.getParent()) {
      prefixes.add(0, p);
    }
    boolean first = true;
    for (Path p : prefixes) {
      Located l = locate(p, true, "mkdir");
      if (l.exists()) {
        if (!l.inode().isDirectory()) {
          throw new HostIOException(Errno.ENOTDIR, "mkdir", p.toString());
        }
        continue;
      }
      requireWritable(l.mount(), "mkdir", p);
      if (first) {
        gate.firstStep("mkdir");
        first = false;
      } else {
        gate.step("mkdir");
      }
      Inode parent = l.parent().inode();
      parent.putEntry(l.name(), new Inode(parent.fs, FileType.DIRECTORY, mode, 0, 0, null, 0, 0));
      gate.step("fsync-dir");
      parent.syncDirectory();
    }
  }

  /** The port's durable symlink flip: temp link, rename over, fsync of the directory. */
  public void symlinkDurably(Path link, String target) throws IOException {
    if (target == null || target.isEmpty()) {
      throw new IllegalArgumentException("a symlink needs a non-empty target: " + link);
    }
    Located l = existingParentOf(link, "symlink");
    if (l.exists()) {
      if (l.inode().isDirectory()) {
        throw new HostIOException(Errno.EISDIR, "symlink", link.toString());
      }
      if (l.inode().type != FileType.SYMLINK) {
        throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
      }
    }
    requireWritable(l.mount(), "symlink", link);
    gate.firstStep("create-temp");
    Inode dir = l.parent().inode();
    String tempName = tempName(l.name());
    dir.putEntry(tempName, new Inode(dir.fs, FileType.SYMLINK, 0777, 0, 0, target, 0, 0));
    gate.step("rename");
    Inode renamed = dir.removeEntry(tempName);
    renamed.metadataChanged();
    dir.putEntry(l.name(), renamed);
    gate.step("fsync-dir");
    dir.syncDirectory();
  }

  /** The port's durable rename within one mount, then fsync of both parents. */
  public void renameDurably(Path from, Path to) throws IOException {
    gate.firstStep("rename");
    RenameResult r = renameEntries(from, to);
    gate.step("fsync-dir");
    r.toDir().syncDirectory();
    if (r.fromDir() != r.toDir()) {
      gate.step("fsync-dir");
      r.fromDir().syncDirectory();
    }
  }

  /** The port's durable removal: unlink or rmdir, then fsync of the parent. */
  public void removeDurably(Path path) throws IOException {
    gate.firstStep("unlink");
    Inode dir = removeEntry(path);
    gate.step("fsync-dir");
    dir.syncDirectory();
  }

  /** Removal without fsync of the parent: lost by a crash before {@link #syncDirectory}. */
  public void delete(Path path) throws IOException {
    gate.firstStep("unlink");
    removeEntry(path);
  }

  /** fsync of a directory. */
  public void syncDirectory(Path dir) throws IOException {
    Inode i = existing(dir, true, "fsync").inode();
    if (!i.isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "fsync", dir.toString());
    }
    gate.firstStep("fsync-dir");
    i.syncDirectory();
  }

  public void chmod(Path path, int mode) throws IOException {
    requireMode(mode);
    Located l = existing(path, false, "chmod");
    if (l.inode().type == FileType.SYMLINK) {
      throw new HostIOException(
          Errno.EOTHER, "chmod (symlinks have no mode of their own)", path.toString());
    }
    requireWritable(l.mount(), "chmod", path);
    l.inode().changeMode(mode);
  }

  public void chown(Path path, int uid, int gid) throws IOException {
    if (uid < 0 || gid < 0) {
      throw new IllegalArgumentException("uid and gid must not be negative: " + uid + ":" + gid);
    }
    Located l = existing(path, false, "chown");
    requireWritable(l.mount(), "chown", path);
    l.inode().changeOwner(uid, gid);
  }

  /** The port's durable chmod of a regular file or directory: chmod, then fsync of the entry. */
  public void chmodDurably(Path path, int mode) throws IOException {
    requireMode(mode);
    Located l = fsyncable(path, "chmod");
    gate.firstStep("chmod");
    l.inode().changeMode(mode);
    gate.step("fsync-file");
    syncEntry(l);
  }

  /** The port's durable chown of a regular file or directory: chown, then fsync of the entry. */
  public void chownDurably(Path path, int uid, int gid) throws IOException {
    if (uid < 0 || gid < 0) {
      throw new IllegalArgumentException("uid and gid must not be negative: " + uid + ":" + gid);
    }
    Located l = fsyncable(path, "chown");
    gate.firstStep("chown");
    l.inode().changeOwner(uid, gid);
    gate.step("fsync-file");
    syncEntry(l);
  }

  /** {@code fsync(2)} of a located file or directory, with what it makes durable besides. */
  private static void syncEntry(Located l) {
    if (l.inode().isDirectory()) {
      l.inode().syncDirectory();
    } else {
      syncFileAndNewName(l.parent().inode(), l.name(), l.inode());
    }
  }

  /** An existing, writable regular file or directory (not followed if a symlink): what a durable metadata change can fsync. */
  private Located fsyncable(Path path, String op) throws HostIOException {
    Located l = existing(path, false, op);
    if (l.inode().type != FileType.REGULAR && l.inode().type != FileType.DIRECTORY) {
      throw new HostIOException(
          Errno.EINVAL, op + " durably (only a regular file or a directory)", path.toString());
    }
    requireWritable(l.mount(), op, path);
    return l;
  }

  /** An exclusive lock on the file's inode for the process {@code pid}; empty while anyone else holds it. */
  public Optional<HostLock> tryLock(Path lockFile, long pid) throws IOException {
    Located l = locate(lockFile, true, "open");
    Inode file = l.inode();
    if (file == null) {
      requireWritable(l.mount(), "open", lockFile);
      Inode dir = l.parent().inode();
      file = new Inode(dir.fs, FileType.REGULAR, 0600, 0, 0, null, 0, 0);
      dir.putEntry(l.name(), file);
    } else if (file.isDirectory()) {
      throw new HostIOException(Errno.EISDIR, "open", lockFile.toString());
    }
    if (locks.containsKey(file)) {
      return Optional.empty();
    }
    Holder token = new Holder(pid);
    locks.put(file, token);
    Inode locked = file;
    return Optional.of(new HostLock() {
      private boolean closed;

      @Override
      public void close() {
        synchronized (gate.monitor()) {
          if (!closed && locks.get(locked) == token) {
            locks.remove(locked);
          }
          closed = true;
        }
      }
    });
  }

  /** The process holding a lock on the file at {@code path}; empty when none does. */
  public OptionalLong lockHolder(Path path) throws IOException {
    Located l = locate(path, true, "open");
    if (!l.exists() || !locks.containsKey(l.inode())) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(locks.get(l.inode()).pid());
  }

  /** Who holds a lock: one object per hold, so a stale hold's release frees nothing. */
  private static final class Holder {
    private final long pid;

    Holder(long pid) {
      this.pid = pid;
    }

    long pid() {
      return pid;
    }
  }

  /** Whether someone holds a lock on the file at {@code path}. */
  public boolean isLocked(Path path) throws IOException {
    Located l = locate(path, true, "open");
    return l.exists() && locks.containsKey(l.inode());
  }

  // ---------------------------------------------------------------- raw syscalls for tests

  /** {@code open(O_CREAT|O_TRUNC)} + {@code write} without any fsync: nothing of it is durable yet. */
  public void writeVolatile(Path path, byte[] content, int mode) throws IOException {
    requireMode(mode);
    Located l = locate(path, true, "open");
    requireWritable(l.mount(), "open", path);
    if (l.exists()) {
      if (l.inode().isDirectory()) {
        throw new HostIOException(Errno.EISDIR, "open", path.toString());
      }
      l.inode().replaceData(content.clone());
      return;
    }
    Inode dir = l.parent().inode();
    Inode file = new Inode(dir.fs, FileType.REGULAR, mode, 0, 0, null, 0, 0);
    file.replaceData(content.clone());
    dir.putEntry(l.name(), file);
  }

  /**
   * While {@code coarse}, every change gets the same change and modification time as the change
   * before it, as changes within one tick of a coarse filesystem clock do (a kernel or filesystem
   * without fine-grained timestamps); otherwise every change gets a later time than the one before.
   */
  public void coarseTimestamps(boolean coarse) {
    changeClock.coarse(coarse);
  }

  /**
   * Media corruption of a regular file (following symlinks): its content becomes {@code content}
   * while every piece of metadata (size, inode, mode, owner, change and modification times) stays
   * as it was, both in the running system and durably. No system call can do this; a failing
   * disk, a bug below the filesystem or a direct write to the block device can. The size must stay.
   */
  public void corruptContent(Path path, byte[] content) throws IOException {
    Inode i = existing(path, true, "open").inode();
    if (i.type != FileType.REGULAR) {
      throw new HostIOException(Errno.EINVAL, "corrupt", path.toString());
    }
    if (content.length != i.data.length) {
      throw new IllegalArgumentException("corruption keeps the size (" + i.data.length
          + " bytes), not " + content.length + ": " + path);
    }
    i.data = content.clone();
    i.durableData = i.data;
  }

  /** {@code fsync(2)} of a file or directory (following symlinks). */
  public void fsync(Path path) throws IOException {
    Located l = existing(path, true, "fsync");
    if (l.inode().isDirectory()) {
      l.inode().syncDirectory();
    } else if (l.parent() != null) {
      syncFileAndNewName(l.parent().inode(), l.name(), l.inode());
    }
  }

  /** {@code rename(2)} without any fsync. */
  public void rename(Path from, Path to) throws IOException {
    renameEntries(from, to);
  }

  /** {@code unlink(2)} or {@code rmdir(2)} without any fsync. */
  public void unlink(Path path) throws IOException {
    removeEntry(path);
  }

  /** {@code mkdir(2)} without any fsync. */
  public void mkdir(Path path, int mode) throws IOException {
    requireMode(mode);
    Located l = locate(path, false, "mkdir");
    if (l.exists()) {
      throw new HostIOException(Errno.EEXIST, "mkdir", path.toString());
    }
    requireWritable(l.mount(), "mkdir", path);
    Inode dir = l.parent().inode();
    dir.putEntry(l.name(), new Inode(dir.fs, FileType.DIRECTORY, mode, 0, 0, null, 0, 0));
  }

  /** {@code symlink(2)} without any fsync. */
  public void symlink(Path link, String target) throws IOException {
    Located l = locate(link, false, "symlink");
    if (l.exists()) {
      throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
    }
    requireWritable(l.mount(), "symlink", link);
    Inode dir = l.parent().inode();
    dir.putEntry(l.name(), new Inode(dir.fs, FileType.SYMLINK, 0777, 0, 0, target, 0, 0));
  }

  /** {@code mknod(2)} of a device node, FIFO or socket, without any fsync. */
  public void mknod(Path path, FileType type, int mode, int major, int minor) throws IOException {
    if (type == FileType.REGULAR || type == FileType.DIRECTORY || type == FileType.SYMLINK) {
      throw new IllegalArgumentException(
          "mknod makes device nodes, FIFOs and sockets, not " + type);
    }
    requireMode(mode);
    Located l = locate(path, false, "mknod");
    if (l.exists()) {
      throw new HostIOException(Errno.EEXIST, "mknod", path.toString());
    }
    Inode dir = l.parent().inode();
    dir.putEntry(l.name(), new Inode(dir.fs, type, mode, 0, 0, null, major, minor));
  }

  // ---------------------------------------------------------------- durable fixtures

  /** A directory (and missing parents, 0755) that is already durable. */
  public void seedDirectory(Path dir, int mode) throws IOException {
    requireMode(mode);
    seedParents(dir);
    Located l = locate(dir, true, "mkdir");
    if (!l.exists()) {
      mkdir(dir, mode);
    } else if (!l.inode().isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "mkdir", dir.toString());
    } else {
      l.inode().changeMode(mode);
    }
    syncEntryAndParent(dir);
  }

  /** A regular file (missing parents 0755) whose content, mode and name are already durable. */
  public void seedFile(Path path, byte[] content, int mode) throws IOException {
    seedParents(path);
    Located l = locate(path, false, "open");
    if (l.exists() && l.inode().type == FileType.SYMLINK) {
      unlink(path);
    }
    writeVolatile(path, content, mode);
    Located written = existing(path, true, "open");
    written.inode().changeMode(mode);
    written.inode().syncSelf();
    syncEntryAndParent(path);
  }

  /** {@link #seedFile(Path, byte[], int)} of UTF-8 text. */
  public void seedFile(Path path, String content, int mode) throws IOException {
    seedFile(path, content.getBytes(StandardCharsets.UTF_8), mode);
  }

  /** A symlink (missing parents 0755) that is already durable; replaces an existing link. */
  public void seedSymlink(Path link, String target) throws IOException {
    seedParents(link);
    Located l = locate(link, false, "symlink");
    if (l.exists()) {
      if (l.inode().type != FileType.SYMLINK) {
        throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
      }
      unlink(link);
    }
    symlink(link, target);
    locate(link, false, "symlink").parent().inode().syncDirectory();
  }

  /** A device node, FIFO or socket (missing parents 0755) that is already durable. */
  public void seedNode(Path path, FileType type, int mode, int major, int minor)
      throws IOException {
    seedParents(path);
    mknod(path, type, mode, major, minor);
    locate(path, false, "mknod").parent().inode().syncDirectory();
  }

  /** Sets an entry's owner durably (fixture). */
  public void seedOwner(Path path, int uid, int gid) throws IOException {
    chown(path, uid, gid);
    Located l = existing(path, false, "chown");
    l.inode().syncSelf();
  }

  private void seedParents(Path path) throws IOException {
    requireAbsolute(path);
    Path parent = path.normalize().getParent();
    if (parent == null) {
      return;
    }
    List<Path> prefixes = new ArrayList<>();
    for (Path p = parent; p != null && p.getParent() != null; p = p.getParent()) {
      prefixes.add(0, p);
    }
    for (Path p : prefixes) {
      Located l = locate(p, true, "mkdir");
      if (!l.exists()) {
        Inode dir = l.parent().inode();
        dir.putEntry(l.name(), new Inode(dir.fs, FileType.DIRECTORY, 0755, 0, 0, null, 0, 0));
        dir.syncDirectory();
      } else if (!l.inode().isDirectory()) {
        throw new HostIOException(Errno.ENOTDIR, "mkdir", p.toString());
      }
    }
  }

  private void syncEntryAndParent(Path path) throws IOException {
    Located l = existing(path, true, "fsync");
    if (l.inode().isDirectory()) {
      l.inode().syncDirectory();
    } else {
      l.inode().syncSelf();
    }
    Located self = locate(path, false, "fsync");
    if (self.parent() != null) {
      self.parent().inode().syncDirectory();
    }
  }

  // ---------------------------------------------------------------- shared mechanics

  private String tempName(String target) {
    String name = HostFiles.TEMP_PREFIX + target + "." + (++tempCounter);
    return name.length() > 255 ? HostFiles.TEMP_PREFIX + tempCounter : name;
  }

  private static void syncFileAndNewName(Inode dir, String name, Inode file) {
    file.syncSelf();
    if (dir.entries.get(name) == file && !dir.durableEntries.containsKey(name)) {
      dir.durableEntries.put(name, file);
    }
  }

  private record RenameResult(Inode fromDir, Inode toDir) {}

  private RenameResult renameEntries(Path from, Path to) throws IOException {
    Located src = locate(from, false, "rename");
    if (!src.exists()) {
      throw new HostIOException(Errno.ENOENT, "rename", from.toString());
    }
    if (src.parent() == null || src.isMountRoot() || hasMountAtOrBelow(src.path())) {
      throw new HostIOException(Errno.EBUSY, "rename", from.toString());
    }
    Located dst = locate(to, false, "rename");
    if (dst.parent() == null || dst.isMountRoot()) {
      throw new HostIOException(Errno.EBUSY, "rename", to.toString());
    }
    if (src.mount() != dst.mount()) {
      throw new HostIOException(Errno.EXDEV, "rename", from + " -> " + to);
    }
    requireWritable(src.mount(), "rename", from);
    if (src.inode() == dst.inode()) {
      return new RenameResult(src.parent().inode(), dst.parent().inode());
    }
    if (src.inode().isDirectory()) {
      if (dst.path().startsWith(src.path() + "/")) {
        throw new HostIOException(Errno.EINVAL, "rename", from + " -> " + to);
      }
      if (dst.exists()) {
        if (!dst.inode().isDirectory()) {
          throw new HostIOException(Errno.ENOTDIR, "rename", to.toString());
        }
        if (!dst.inode().entries.isEmpty()) {
          throw new HostIOException(Errno.ENOTEMPTY, "rename", to.toString());
        }
      }
    } else if (dst.exists() && dst.inode().isDirectory()) {
      throw new HostIOException(Errno.EISDIR, "rename", to.toString());
    }
    Inode fromDir = src.parent().inode();
    Inode toDir = dst.parent().inode();
    fromDir.removeEntry(src.name());
    src.inode().metadataChanged();
    toDir.putEntry(dst.name(), src.inode());
    return new RenameResult(fromDir, toDir);
  }

  private Inode removeEntry(Path path) throws IOException {
    Located l = locate(path, false, "unlink");
    if (!l.exists()) {
      throw new HostIOException(Errno.ENOENT, "unlink", path.toString());
    }
    if (l.parent() == null || l.isMountRoot()) {
      throw new HostIOException(Errno.EBUSY, "rmdir", path.toString());
    }
    if (l.inode().isDirectory() && !l.inode().entries.isEmpty()) {
      throw new HostIOException(Errno.ENOTEMPTY, "rmdir", path.toString());
    }
    requireWritable(l.mount(), "unlink", path);
    Inode dir = l.parent().inode();
    dir.removeEntry(l.name());
    return dir;
  }

  // ---------------------------------------------------------------- mounts

  /** How a fixture mount behaves. */
  public enum MountKind {
    /** A fresh, empty disk filesystem; it is not mounted again after a crash. */
    DISK,
    /** A fresh, empty disk filesystem that is mounted again after a crash (listed in fstab). */
    DISK_IN_FSTAB,
    /** A tmpfs: mounted again after a crash, but empty. */
    TMPFS
  }

  /** Mounts a fresh filesystem on the existing directory {@code at}; returns the mount id. */
  public long mount(Path at, MountKind kind, String fsType, String source, boolean readOnly)
      throws IOException {
    Located l = existing(at, true, "mount");
    if (!l.inode().isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "mount", at.toString());
    }
    boolean tmpfs = kind == MountKind.TMPFS;
    SimSuperblock fs = new SimSuperblock(0, nextAnonMinor++, fsType, tmpfs, changeClock);
    SimMount m = new SimMount(
        nextMountId++,
        l.mount().id,
        fs,
        fs.root,
        "/",
        l.path(),
        fsType,
        source,
        readOnly,
        kind != MountKind.DISK);
    mounts.add(m);
    return m.id;
  }

  /** Bind-mounts the directory {@code source} on the existing directory {@code at}; returns the mount id. */
  public long bindMount(Path source, Path at) throws IOException {
    Located src = existing(source, true, "mount");
    Located dst = existing(at, true, "mount");
    if (!src.inode().isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "mount", source.toString());
    }
    if (!dst.inode().isDirectory()) {
      throw new HostIOException(Errno.ENOTDIR, "mount", at.toString());
    }
    String rootInFs = pathWithinFilesystem(src);
    SimMount m = new SimMount(
        nextMountId++,
        dst.mount().id,
        src.mount().fs,
        src.inode(),
        rootInFs,
        dst.path(),
        src.mount().fsType,
        src.mount().source,
        false,
        false);
    mounts.add(m);
    return m.id;
  }

  private String pathWithinFilesystem(Located l) {
    String base = l.mount().rootInFs;
    String relative = l.path().equals(l.mount().mountPoint)
        ? ""
        : l.path().substring(l.mount().mountPoint.length());
    if (l.mount().mountPoint.equals("/")) {
      relative = l.path().equals("/") ? "" : l.path();
    }
    String joined = (base.equals("/") ? "" : base) + relative;
    return joined.isEmpty() ? "/" : joined;
  }

  /** Makes the topmost mount at {@code mountPoint} refuse a plain unmount with EBUSY (files open on it). */
  public void setBusy(Path mountPoint, boolean busy) throws IOException {
    mountAt(mountPoint, true, "mount").busy = busy;
  }

  private SimMount mountAt(Path mountPoint, boolean follow, String op) throws IOException {
    Located l = existing(mountPoint, follow, op);
    SimMount top = l.isMountRoot() ? topMountAt(l.path()) : null;
    if (top == null) {
      throw new HostIOException(Errno.EINVAL, op, mountPoint.toString());
    }
    return top;
  }

  /** {@code umount2(2)} of the topmost mount at {@code mountPoint}. */
  public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
    SimMount m = mountAt(mountPoint, !flags.contains(UnmountFlag.NOFOLLOW), "umount2");
    boolean detach = flags.contains(UnmountFlag.DETACH);
    if (m.mountPoint.equals("/") && m.id == mounts.get(0).id) {
      throw new HostIOException(Errno.EBUSY, "umount2", mountPoint.toString());
    }
    List<SimMount> below = new ArrayList<>();
    collectChildren(m, below);
    if (!detach && (m.busy || !below.isEmpty())) {
      throw new HostIOException(Errno.EBUSY, "umount2", mountPoint.toString());
    }
    mounts.removeAll(below);
    mounts.remove(m);
  }

  private void collectChildren(SimMount parent, List<SimMount> into) {
    for (SimMount m : mounts) {
      if (m.parentId == parent.id && m != parent) {
        into.add(m);
        collectChildren(m, into);
      }
    }
  }

  /** The mount table as mountinfo lists it, parents before the mounts stacked on them. */
  public List<MountEntry> mountEntries() {
    List<MountEntry> out = new ArrayList<>();
    for (SimMount m : mounts) {
      out.add(new MountEntry(
          m.id,
          m.parentId,
          m.fs.deviceString(),
          m.rootInFs,
          Path.of(m.mountPoint),
          m.options(),
          m.fsType,
          m.source));
    }
    return out;
  }

  // ---------------------------------------------------------------- crash

  /**
   * Power loss and reboot: every filesystem falls back to its durable state, tmpfs mounts come
   * back empty, mounts not listed in fstab are gone, every lock is released.
   */
  public void crash() {
    locks.clear();
    Map<SimSuperblock, Boolean> reverted = new HashMap<>();
    for (Iterator<SimMount> it = mounts.iterator(); it.hasNext(); ) {
      SimMount m = it.next();
      if (!m.survivesReboot) {
        it.remove();
      }
    }
    List<SimMount> rebuilt = new ArrayList<>();
    for (SimMount m : mounts) {
      if (m.fs.tmpfs) {
        if (reverted.putIfAbsent(m.fs, Boolean.TRUE) == null) {
          m.fs.root = new Inode(m.fs, FileType.DIRECTORY, m.fs.root.mode, 0, 0, null, 0, 0);
        }
        rebuilt.add(new SimMount(
            m.id,
            m.parentId,
            m.fs,
            m.fs.root,
            "/",
            m.mountPoint,
            m.fsType,
            m.source,
            m.readOnly,
            m.survivesReboot));
      } else {
        if (reverted.putIfAbsent(m.fs, Boolean.TRUE) == null) {
          revert(m.fs.root, new IdentityHashMap<>());
        }
        rebuilt.add(m);
      }
    }
    mounts.clear();
    mounts.addAll(rebuilt);
  }

  private static void revert(Inode inode, Map<Inode, Boolean> seen) {
    if (seen.put(inode, Boolean.TRUE) != null) {
      return;
    }
    inode.revertToDurable();
    if (inode.entries != null) {
      for (Inode child : inode.entries.values()) {
        revert(child, seen);
      }
    }
  }

  // ---------------------------------------------------------------- walking (snapshots)

  /** One entry of a walk: its path and what lstat would say, plus content or target. */
  public record WalkEntry(
      String path,
      FileType type,
      int mode,
      int uid,
      int gid,
      byte[] content,
      String linkTarget,
      int major,
      int minor) {}

  /** A snapshot of the tree at and below {@code root} (crossing mounts), for byte-identical comparisons. */
  public FileTreeSnapshot snapshot(Path root) throws IOException {
    return FileTreeSnapshot.of(walk(root), p -> true);
  }

  /** A snapshot of the entries at and below {@code root} whose path {@code include} accepts. */
  public FileTreeSnapshot snapshot(Path root, Predicate<String> include) throws IOException {
    return FileTreeSnapshot.of(walk(root), include);
  }

  /** Every entry at and below {@code root} as the running system sees it, sorted by path, crossing mounts. */
  public List<WalkEntry> walk(Path root) throws IOException {
    Located start = locate(root, true, "walk");
    List<WalkEntry> out = new ArrayList<>();
    if (!start.exists()) {
      return out;
    }
    TreeMap<String, WalkEntry> sorted = new TreeMap<>();
    walk(start.path(), start.inode(), sorted);
    out.addAll(sorted.values());
    return out;
  }

  private void walk(String path, Inode inode, TreeMap<String, WalkEntry> into) {
    into.put(
        path,
        new WalkEntry(
            path,
            inode.type,
            inode.mode,
            inode.uid,
            inode.gid,
            inode.type == FileType.REGULAR ? inode.data : null,
            inode.linkTarget,
            inode.deviceMajor,
            inode.deviceMinor));
    if (inode.isDirectory()) {
      for (Map.Entry<String, Inode> e : inode.entries.entrySet()) {
        String childPath = (path.equals("/") ? "" : path) + "/" + e.getKey();
        SimMount top = topMountAt(childPath);
        walk(childPath, top != null ? top.root : e.getValue(), into);
      }
    }
  }
}
