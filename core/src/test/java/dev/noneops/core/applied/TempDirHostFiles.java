package dev.noneops.core.applied;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The {@link HostFiles} port over the real file system, for core's own tests (core's production
 * code does no I/O, and the simulated host lives in another module). It follows the port's
 * durability steps with plain NIO; paths are used as given, so tests pass paths inside a
 * temporary directory.
 */
final class TempDirHostFiles implements HostFiles {
  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

  @Override
  public Optional<FileMeta> lstat(Path path) throws IOException {
    requireAbsolute(path);
    if (!Files.exists(path, NOFOLLOW)) {
      return Optional.empty();
    }
    Map<String, Object> a = translate("lstat", path, () -> Files.readAttributes(path, "unix:*", NOFOLLOW));
    int mode = (Integer) a.get("mode");
    return Optional.of(new FileMeta(path, type(mode), mode & 07777, (Integer) a.get("uid"), (Integer) a.get("gid"),
        (Long) a.get("size"), (Long) a.get("dev"), (Long) a.get("ino"), 0L));
  }

  private static FileType type(int mode) {
    return switch (mode & 0170000) {
      case 0040000 -> FileType.DIRECTORY;
      case 0120000 -> FileType.SYMLINK;
      case 0020000 -> FileType.CHAR_DEVICE;
      case 0060000 -> FileType.BLOCK_DEVICE;
      case 0010000 -> FileType.FIFO;
      case 0140000 -> FileType.SOCKET;
      default -> FileType.REGULAR;
    };
  }

  @Override
  public byte[] read(Path path) throws IOException {
    requireAbsolute(path);
    return translate("read", path, () -> Files.readAllBytes(path));
  }

  @Override
  public InputStream openRead(Path path) throws IOException {
    requireAbsolute(path);
    return translate("open", path, () -> Files.newInputStream(path));
  }

  @Override
  public List<String> list(Path dir) throws IOException {
    requireAbsolute(dir);
    return translate("list", dir, () -> {
      try (Stream<Path> entries = Files.list(dir)) {
        return entries.map(p -> p.getFileName().toString()).sorted().toList();
      }
    });
  }

  @Override
  public String readLink(Path link) throws IOException {
    requireAbsolute(link);
    if (!Files.isSymbolicLink(link)) {
      throw new HostIOException(Errno.EINVAL, "readlink", link.toString());
    }
    return Files.readSymbolicLink(link).toString();
  }

  @Override
  public long writeDurably(Path path, InputStream content, int mode) throws IOException {
    requireAbsolute(path);
    requireDirectory(path.getParent(), "write");
    Path temp = path.resolveSibling(TEMP_PREFIX + UUID.randomUUID());
    long written;
    try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      written = content.transferTo(java.nio.channels.Channels.newOutputStream(ch));
      ch.force(true);
    }
    Files.setPosixFilePermissions(temp, permissions(mode));
    Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(path.getParent());
    return written;
  }

  @Override
  public void createDirectories(Path dir, int mode) throws IOException {
    requireAbsolute(dir);
    if (Files.isDirectory(dir, NOFOLLOW)) {
      return;
    }
    if (Files.exists(dir, NOFOLLOW)) {
      throw new HostIOException(Errno.ENOTDIR, "mkdir", dir.toString());
    }
    createDirectories(dir.getParent(), mode);
    translate("mkdir", dir, () -> Files.createDirectory(dir));
    Files.setPosixFilePermissions(dir, permissions(mode));
    syncDirectory(dir.getParent());
  }

  @Override
  public void symlinkDurably(Path link, String target) throws IOException {
    requireAbsolute(link);
    if (Files.exists(link, NOFOLLOW) && !Files.isSymbolicLink(link)) {
      throw new HostIOException(Errno.EEXIST, "symlink", link.toString());
    }
    Path temp = link.resolveSibling(TEMP_PREFIX + UUID.randomUUID());
    Files.createSymbolicLink(temp, Path.of(target));
    Files.move(temp, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(link.getParent());
  }

  @Override
  public void renameDurably(Path from, Path to) throws IOException {
    requireAbsolute(from);
    requireAbsolute(to);
    translate("rename", from, () -> Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING));
    syncDirectory(from.getParent());
    syncDirectory(to.getParent());
  }

  @Override
  public void removeDurably(Path path) throws IOException {
    delete(path);
    syncDirectory(path.getParent());
  }

  @Override
  public void delete(Path path) throws IOException {
    requireAbsolute(path);
    translate("remove", path, () -> {
      Files.delete(path);
      return null;
    });
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    requireAbsolute(dir);
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  @Override
  public void chmod(Path path, int mode) throws IOException {
    requireAbsolute(path);
    translate("chmod", path, () -> Files.setPosixFilePermissions(path, permissions(mode)));
  }

  @Override
  public void chown(Path path, int uid, int gid) throws IOException {
    requireAbsolute(path);
    translate("chown", path, () -> {
      Files.setAttribute(path, "unix:uid", uid, NOFOLLOW);
      return Files.setAttribute(path, "unix:gid", gid, NOFOLLOW);
    });
  }

  @Override
  public void chmodDurably(Path path, int mode) throws IOException {
    chmod(path, mode);
    fsync(path);
  }

  @Override
  public void chownDurably(Path path, int uid, int gid) throws IOException {
    chown(path, uid, gid);
    fsync(path);
  }

  private static void fsync(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ch.force(true);
    }
  }

  @Override
  public Optional<HostLock> tryLock(Path lockFile) throws IOException {
    requireAbsolute(lockFile);
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock = ch.tryLock();
    if (lock == null) {
      ch.close();
      return Optional.empty();
    }
    return Optional.of(() -> {
      try {
        lock.release();
        ch.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  private static void requireAbsolute(Path path) {
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("path must be absolute: " + path);
    }
  }

  private static void requireDirectory(Path dir, String operation) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new HostIOException(Errno.ENOENT, operation, dir.toString());
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
    };
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << i)) != 0) {
        set.add(bits[i]);
      }
    }
    return set;
  }

  @FunctionalInterface
  private interface IoCall<T> {
    T call() throws IOException;
  }

  /** Runs {@code call}, turning NIO's exceptions into the port's errno-carrying ones. */
  private static <T> T translate(String operation, Path path, IoCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (NoSuchFileException e) {
      throw new HostIOException(Errno.ENOENT, operation, path.toString(), e);
    } catch (FileAlreadyExistsException e) {
      throw new HostIOException(Errno.EEXIST, operation, path.toString(), e);
    } catch (DirectoryNotEmptyException e) {
      throw new HostIOException(Errno.ENOTEMPTY, operation, path.toString(), e);
    } catch (NotDirectoryException e) {
      throw new HostIOException(Errno.ENOTDIR, operation, path.toString(), e);
    } catch (AccessDeniedException e) {
      throw new HostIOException(Errno.EACCES, operation, path.toString(), e);
    }
  }
}
