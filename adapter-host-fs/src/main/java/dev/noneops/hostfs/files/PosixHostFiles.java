package dev.noneops.hostfs.files;

import dev.noneops.hostfs.internal.io.Fsync;
import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.hostfs.mounts.MountIdSource;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import jnr.posix.FileStat;

/**
 * {@link HostFiles} over the Linux kernel: java.nio for data, existence, {@code lstat} (its
 * {@code unix} view), symlink targets, {@code fsync} and {@code rename(2)} (an atomic move),
 * jnr-posix for exact modes, ownership and {@code flock}.
 *
 * <p>Loading jnr-posix binds the C library, which costs a short-lived process a noticeable part of
 * its run time, so the native binding is created on the first operation that needs it, once: a
 * caller that only reads ({@link #exists}, {@link #lstat}, {@link #read}, {@link #readLink},
 * {@link #list}, {@link #openRead}) never loads it (the mount id {@link #lstat} reports comes from
 * its {@link MountIdSource}, which may bind {@code statx}). A binding that cannot be made (jnr-posix not native) fails
 * that first native operation, before it touches the file system, with the binding's error.
 *
 * <p>Every durable operation follows the port's discipline: a temp entry named
 * {@value HostFiles#TEMP_PREFIX}{@code ...} in the target's own directory (so the rename never
 * crosses a filesystem), {@code fsync} of the file, {@code rename(2)}, {@code fsync} of the
 * directory. Modes are applied with {@code chmod} after creation, so the umask never masks them.
 * A durable mode or owner change fsyncs the entry itself after the {@code chmod} or {@code chown}.
 */
public final class PosixHostFiles implements HostFiles {

  private static final int COPY_BUFFER = 64 * 1024;
  private static final int MAX_NAME_IN_TEMP = 96;
  private static final int LOCK_FILE_MODE = 0600;
  private static final Path PROC_LOCKS = Path.of("/proc/locks");
  /** The fields of {@code lstat(2)} that {@link FileMeta} carries, from java.nio's {@code unix} view. */
  private static final String LSTAT_FIELDS =
      "unix:mode,uid,gid,size,dev,ino,ctime,lastModifiedTime";

  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private final Supplier<Syscalls> binding;
  private final MountIdSource mounts;
  private volatile Syscalls made;

  /**
   * @param binding makes the native binding on the first operation that needs it (for instance
   *     {@code () -> Syscalls.load()}, which insists on native POSIX); asked again after a failure
   * @param mounts tells the mount id reported by {@link #lstat}
   */
  public PosixHostFiles(Supplier<Syscalls> binding, MountIdSource mounts) {
    this.binding = Objects.requireNonNull(binding, "binding");
    this.mounts = Objects.requireNonNull(mounts, "mounts");
  }

  /**
   * @param syscalls the native binding, already made
   * @param mounts tells the mount id reported by {@link #lstat}
   */
  public PosixHostFiles(Syscalls syscalls, MountIdSource mounts) {
    this(constant(Objects.requireNonNull(syscalls, "syscalls")), mounts);
  }

  private static Supplier<Syscalls> constant(Syscalls syscalls) {
    return () -> syscalls;
  }

  /** The native binding, made by the first caller that needs it; a failure is not remembered. */
  private Syscalls syscalls() {
    Syscalls s = made;
    if (s == null) {
      synchronized (this) {
        s = made;
        if (s == null) {
          s = Objects.requireNonNull(binding.get(), "native binding");
          made = s;
        }
      }
    }
    return s;
  }

  /**
   * {@inheritDoc} Through java.nio's {@code unix} view, the JDK's own {@code lstat(2)} (times to
   * the nanosecond), so it binds no native library: a short read-only command (status, the launch
   * check) would pay jnr's start-up for it. Failures are raised with their errno as {@link
   * #exists} raises them; the mount id comes from the {@link MountIdSource}.
   */
  @Override
  public Optional<FileMeta> lstat(Path path) throws IOException {
    requireAbsolute(path);
    Map<String, Object> st;
    try {
      st = Files.readAttributes(path, LSTAT_FIELDS, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw IoErrors.translate(e, "lstat", path);
    }
    int mode = (Integer) st.get("mode");
    long mountId;
    try {
      mountId = mounts.mountIdOf(path);
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        // Removed between lstat and the mount lookup: nothing is there any more.
        return Optional.empty();
      }
      throw e;
    }
    return Optional.of(new FileMeta(
        path,
        FileTypes.of(mode),
        mode & 07777,
        (Integer) st.get("uid"),
        (Integer) st.get("gid"),
        (Long) st.get("size"),
        (Long) st.get("dev"),
        (Long) st.get("ino"),
        mountId,
        nanos((FileTime) st.get("ctime")),
        nanos((FileTime) st.get("lastModifiedTime"))));
  }

  /** A time of the {@code unix} view in nanoseconds since the epoch. */
  private static long nanos(FileTime time) {
    return time.to(TimeUnit.NANOSECONDS);
  }

  /**
   * {@code lstat(2)} through java.nio, without the native binding: a dangling symlink exists;
   * ENOENT is false, every other failure (EACCES, ENOTDIR, ELOOP, ...) is raised as {@link #lstat}
   * raises it.
   */
  @Override
  public boolean exists(Path path) throws IOException {
    requireAbsolute(path);
    try {
      Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw IoErrors.translate(e, "lstat", path);
    }
  }

  /** {@inheritDoc} Plain NIO for the common types, so it binds no native library; {@link #lstat} for the rest. */
  @Override
  public Optional<FileType> typeOf(Path path) throws IOException {
    requireAbsolute(path);
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw IoErrors.translate(e, "lstat", path);
    }
    if (attributes.isSymbolicLink()) {
      return Optional.of(FileType.SYMLINK);
    }
    if (attributes.isDirectory()) {
      return Optional.of(FileType.DIRECTORY);
    }
    if (attributes.isRegularFile()) {
      return Optional.of(FileType.REGULAR);
    }
    return lstat(path).map(FileMeta::type);
  }

  @Override
  public byte[] read(Path path) throws IOException {
    requireAbsolute(path);
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", path);
    }
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    requireAbsolute(path);
    InputStream in;
    try {
      in = Files.newInputStream(path);
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", path);
    }
    return new TranslatingInputStream(in, path);
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    requireAbsolute(dir);
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        names.add(String.valueOf(entry.getFileName()));
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", dir);
    } catch (DirectoryIteratorException e) {
      throw IoErrors.translate(e.getCause(), "list", dir);
    }
    Collections.sort(names);
    return names;
  }

  @Override
  public String readLink(Path link) throws IOException {
    requireAbsolute(link);
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      throw IoErrors.translate(e, "readlink", link);
    }
  }

  @Override
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    requireAbsolute(path);
    requireMode(mode);
    Objects.requireNonNull(content, "content");
    Path parent = parentOf(path);
    Syscalls syscalls = syscalls();
    Path temp = tempBeside(path);
    long written;
    boolean renamed = false;
    try {
      written = writeSynced(syscalls, temp, path, content, mode);
      move(temp, path);
      renamed = true;
    } finally {
      if (!renamed) {
        syscalls.unlinkOrErrno(temp);
      }
    }
    Fsync.directory(parent);
    return written;
  }

  /** Creates {@code temp}, copies {@code content} into it, sets its mode and fsyncs it. */
  private static long writeSynced(
      Syscalls syscalls, Path temp, Path target, InputStream content, int mode) throws IOException {
    FileChannel channel;
    try {
      // Owner-only until the content is complete: a secret is never readable through a wider
      // temporary mode; the exact mode is set once it is written.
      channel = FileChannel.open(
          temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY);
    } catch (IOException e) {
      throw IoErrors.translate(e, "write", target);
    }
    try (channel) {
      long written = 0;
      byte[] buffer = new byte[COPY_BUFFER];
      int n;
      // Errors reading the caller's stream are the caller's and pass through untranslated.
      while ((n = content.read(buffer)) >= 0) {
        ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
        try {
          while (chunk.hasRemaining()) {
            channel.write(chunk);
          }
        } catch (IOException e) {
          throw IoErrors.translate(e, "write", target);
        }
        written += n;
      }
      syscalls.chmod(temp, mode);
      try {
        channel.force(true);
      } catch (IOException e) {
        throw IoErrors.translate(e, "fsync", target);
      }
      return written;
    }
  }

  @Override
  public void createDirectories(Path dir, int mode) throws IOException {
    requireAbsolute(dir);
    requireMode(mode);
    Syscalls syscalls = syscalls();
    Path current = dir.getRoot();
    for (Path name : dir) {
      current = current.resolve(name);
      Optional<FileStat> existing = syscalls.lstat(current);
      if (existing.isEmpty()) {
        try {
          syscalls.mkdir(current, mode);
        } catch (HostIOException e) {
          if (e.errno() != Errno.EEXIST) {
            throw e;
          }
          requireDirectory(syscalls, current, syscalls.lstat(current));
          continue;
        }
        syscalls.chmod(current, mode);
        Fsync.directory(
            Objects.requireNonNull(current.getParent(), "a created directory has a parent"));
      } else {
        requireDirectory(syscalls, current, existing);
      }
    }
  }

  /** Accepts a directory, or a symlink that resolves to one (as {@code mkdir -p} does). */
  private static void requireDirectory(Syscalls syscalls, Path path, Optional<FileStat> stat)
      throws IOException {
    if (stat.isEmpty()) {
      throw new HostIOException(Errno.ENOENT, "mkdir", path.toString());
    }
    FileType type = FileTypes.of(stat.get().mode());
    if (type == FileType.DIRECTORY) {
      return;
    }
    if (type == FileType.SYMLINK) {
      Optional<FileStat> target = syscalls.stat(path);
      if (target.isPresent() && FileTypes.of(target.get().mode()) == FileType.DIRECTORY) {
        return;
      }
    }
    throw new HostIOException(Errno.ENOTDIR, "mkdir", path.toString());
  }

  @Override
  public void symlinkDurably(Path link, String target) throws IOException {
    requireAbsolute(link);
    Objects.requireNonNull(target, "target");
    if (target.isEmpty()) {
      throw new IllegalArgumentException("a symlink target must not be empty: " + link);
    }
    Path parent = parentOf(link);
    Syscalls syscalls = syscalls();
    Optional<FileStat> existing = syscalls.lstat(link);
    if (existing.isPresent()) {
      FileType type = FileTypes.of(existing.get().mode());
      if (type == FileType.DIRECTORY) {
        throw new HostIOException(Errno.EISDIR, "symlink", link.toString());
      }
      if (type != FileType.SYMLINK) {
        throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
      }
    }
    Path temp = tempBeside(link);
    boolean renamed = false;
    try {
      syscalls.symlink(target, temp);
      move(temp, link);
      renamed = true;
    } finally {
      if (!renamed) {
        syscalls.unlinkOrErrno(temp);
      }
    }
    Fsync.directory(parent);
  }

  @Override
  public void renameDurably(Path from, Path to) throws IOException {
    requireAbsolute(from);
    requireAbsolute(to);
    Path fromParent = parentOf(from);
    Path toParent = parentOf(to);
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw IoErrors.translate(e, "rename", from + " -> " + to);
    }
    Fsync.directory(toParent);
    if (!fromParent.equals(toParent)) {
      Fsync.directory(fromParent);
    }
  }

  @Override
  public void removeDurably(Path path) throws IOException {
    delete(path);
    Fsync.directory(parentOf(path));
  }

  @Override
  public void delete(Path path) throws IOException {
    requireAbsolute(path);
    parentOf(path);
    Syscalls syscalls = syscalls();
    int rc = syscalls.unlinkOrErrno(path);
    if (rc == -Errno.EISDIR.number()) {
      syscalls.rmdir(path);
    } else if (rc < 0) {
      throw syscalls.failure(-rc, "unlink", path.toString());
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    requireAbsolute(dir);
    Fsync.directory(dir);
  }

  @Override
  public void chmod(Path path, int mode) throws IOException {
    requireAbsolute(path);
    requireMode(mode);
    syscalls().lchmod(path, mode);
  }

  @Override
  public void chown(Path path, int uid, int gid) throws IOException {
    requireAbsolute(path);
    syscalls().lchown(path, uid, gid);
  }

  @Override
  public void chmodDurably(Path path, int mode) throws IOException {
    requireAbsolute(path);
    requireMode(mode);
    requireFsyncable(path, "chmod");
    syscalls().lchmod(path, mode);
    Fsync.entry(path);
  }

  @Override
  public void chownDurably(Path path, int uid, int gid) throws IOException {
    requireAbsolute(path);
    requireFsyncable(path, "chown");
    syscalls().lchown(path, uid, gid);
    Fsync.entry(path);
  }

  /** Only a regular file or a directory can be opened for its fsync without side effects (a FIFO's open blocks). */
  private void requireFsyncable(Path path, String operation) throws IOException {
    Optional<FileType> type = typeOf(path);
    if (type.isEmpty()) {
      throw new HostIOException(Errno.ENOENT, operation, path.toString());
    }
    if (type.get() != FileType.REGULAR && type.get() != FileType.DIRECTORY) {
      throw new HostIOException(
          Errno.EINVAL,
          operation + " durably (only a regular file or a directory)",
          path.toString());
    }
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) throws IOException {
    requireAbsolute(lockFile);
    Syscalls syscalls = syscalls();
    OptionalInt fd = syscalls.tryLockExclusive(lockFile, LOCK_FILE_MODE);
    if (fd.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new FlockLock(syscalls, lockFile, fd.getAsInt()));
  }

  @Override
  public OptionalLong lockHolder(Path lockFile) throws IOException {
    Optional<FileMeta> meta = lstat(lockFile);
    if (meta.isEmpty() || !meta.get().isRegularFile()) {
      return OptionalLong.empty();
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(PROC_LOCKS, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", PROC_LOCKS);
    }
    return ProcLocks.holder(lines, meta.get().device(), meta.get().inode());
  }

  private void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw IoErrors.translate(e, "rename", target);
    }
  }

  private Path tempBeside(Path target) {
    String name = Objects.requireNonNull(
            target.getFileName(), "a file written beside a temporary one")
        .toString();
    if (name.length() > MAX_NAME_IN_TEMP) {
      name = name.substring(0, MAX_NAME_IN_TEMP);
    }
    byte[] nonce = new byte[8];
    Nonces.RANDOM.nextBytes(nonce);
    return target.resolveSibling(TEMP_PREFIX + name + "." + HexFormat.of().formatHex(nonce));
  }

  /**
   * The source of temp names' nonces, made on the first durable write: seeding a {@link
   * SecureRandom} costs a command that only reads a noticeable part of its run time.
   */
  private static final class Nonces {
    static final SecureRandom RANDOM = new SecureRandom();
  }

  private static void requireAbsolute(Path path) {
    Objects.requireNonNull(path, "path");
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("path must be absolute: " + path);
    }
  }

  private static Path parentOf(Path path) {
    Path parent = path.getParent();
    if (parent == null) {
      throw new IllegalArgumentException(
          "the file system root cannot be replaced or removed: " + path);
    }
    return parent;
  }

  private static void requireMode(int mode) {
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException(
          "mode must be within 0..07777: 0" + Integer.toOctalString(mode));
    }
  }

  /** Reports read errors of an open file with their errno and path. */
  private static final class TranslatingInputStream extends FilterInputStream {
    private final Path path;

    TranslatingInputStream(InputStream in, Path path) {
      super(in);
      this.path = path;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        throw IoErrors.translate(e, "read", path);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (IOException e) {
        throw IoErrors.translate(e, "read", path);
      }
    }
  }
}
