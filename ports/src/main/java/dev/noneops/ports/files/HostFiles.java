package dev.noneops.ports.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The host's file system, with the durability discipline every mutation must follow.
 *
 * <p><b>Durability.</b> What a method marked <em>durable</em> did survives a power loss the
 * moment it returns:
 *
 * <ul>
 *   <li>a file write is: temp file in the same directory, write, {@code fsync} the file,
 *       {@code rename(2)} over the target, {@code fsync} the directory. A reader sees either the
 *       old content or the new, never a mix; a crash may leave the temp file behind (its name
 *       starts with {@value #TEMP_PREFIX}), which the caller's recovery removes;
 *   <li>a symlink flip is: temp link, {@code rename(2)}, {@code fsync} the directory;
 *   <li>a removal is: {@code unlink}/{@code rmdir}, {@code fsync} the directory;
 *   <li>a directory creation is: {@code mkdir}, {@code fsync} the parent;
 *   <li>a mode or owner change is: {@code chmod}/{@code chown}, {@code fsync} the entry itself
 *       (an fsync of its directory makes names durable, not an entry's mode or owner).
 * </ul>
 *
 * <p>Non-durable operations ({@link #delete}, {@link #chmod}, {@link #chown}) exist for bulk work
 * such as tearing down a data directory; the caller ends a {@code delete} with
 * {@link #syncDirectory}, and uses {@link #chmodDurably} or {@link #chownDurably} for a mode or
 * owner that must survive a power loss.
 *
 * <p><b>Errors.</b> Operating-system failures are {@link dev.noneops.ports.HostIOException}s with
 * the precise errno ({@code ENOENT}, {@code ENOTEMPTY}, {@code ENOSPC}, {@code EIO}, ...), the
 * operation and the path. Paths must be absolute; a relative path is an
 * {@link IllegalArgumentException}. No method follows a symlink in its last component unless it
 * says so.
 */
public interface HostFiles {

  /** Prefix of the temp files and links the durable operations create beside their target. */
  String TEMP_PREFIX = ".noneops-tmp-";

  /** The entry's metadata without following a final symlink; empty when nothing is there. */
  Optional<FileMeta> lstat(Path path) throws IOException;

  /** Whether anything (including a dangling symlink) exists at {@code path}. */
  default boolean exists(Path path) throws IOException {
    return lstat(path).isPresent();
  }

  /**
   * The entry's type without following a final symlink; empty when nothing is there. The same
   * answer as {@link #lstat}'s, for callers that need nothing else (an adapter may answer it more
   * cheaply, without the mount id).
   */
  default Optional<FileType> typeOf(Path path) throws IOException {
    return lstat(path).map(FileMeta::type);
  }

  /** The whole content of a regular file (following symlinks). ENOENT when absent. */
  byte[] read(Path path) throws IOException;

  /** The content of a regular file as UTF-8 text. */
  default String readString(Path path) throws IOException {
    return new String(read(path), StandardCharsets.UTF_8);
  }

  /** A stream over a regular file's content, for files too large to hold in memory. */
  InputStream openRead(Path path) throws IOException;

  /** The names of a directory's entries, sorted, without {@code .} and {@code ..}. */
  List<String> list(Path dir) throws IOException;

  /** The target of a symlink, verbatim. EINVAL when {@code link} is not a symlink. */
  String readLink(Path link) throws IOException;

  /**
   * Durably replaces (or creates) {@code path} with {@code content} and exactly {@code mode}
   * (not masked by the umask). The parent directory must exist. Returns the bytes written.
   */
  long writeDurably(Path path, InputStream content, int mode) throws IOException;

  /** {@link #writeDurably(Path, InputStream, int)} for content already in memory. */
  default void writeDurably(Path path, byte[] content, int mode) throws IOException {
    writeDurably(path, new ByteArrayInputStream(content), mode);
  }

  /** {@link #writeDurably(Path, byte[], int)} of UTF-8 text. */
  default void writeDurably(Path path, String content, int mode) throws IOException {
    writeDurably(path, content.getBytes(StandardCharsets.UTF_8), mode);
  }

  /**
   * Durably creates {@code dir} and every missing parent with {@code mode}; existing directories
   * are left as they are. ENOTDIR when a component exists and is not a directory.
   */
  void createDirectories(Path dir, int mode) throws IOException;

  /**
   * Durably points the symlink {@code link} at {@code target} (which need not exist), replacing
   * an existing symlink atomically. EISDIR/EEXIST when something other than a symlink is there.
   */
  void symlinkDurably(Path link, String target) throws IOException;

  /**
   * Durably renames {@code from} to {@code to} within one filesystem (EXDEV otherwise),
   * replacing a file or an empty directory at {@code to}, then fsyncs both parents.
   */
  void renameDurably(Path from, Path to) throws IOException;

  /**
   * Durably removes a file, symlink (not its target) or empty directory. ENOENT when absent,
   * ENOTEMPTY for a directory with entries.
   */
  void removeDurably(Path path) throws IOException;

  /** Removes like {@link #removeDurably} but without fsyncing the parent. */
  void delete(Path path) throws IOException;

  /** Fsyncs a directory, making every entry created, renamed or removed in it durable. */
  void syncDirectory(Path dir) throws IOException;

  /**
   * Sets the permission bits of an existing entry (following no symlink). Not durable: a power
   * loss may undo it, even after an fsync of its directory.
   */
  void chmod(Path path, int mode) throws IOException;

  /**
   * Sets the owner of an existing entry (following no symlink). Not durable: a power loss may
   * undo it, even after an fsync of its directory.
   */
  void chown(Path path, int uid, int gid) throws IOException;

  /**
   * Durably sets the permission bits of an existing regular file or directory: {@code chmod},
   * then {@code fsync} of the entry. ENOENT when absent; EINVAL for any other kind of entry (a
   * symlink, a device node, a FIFO, a socket), which cannot be fsynced without opening it.
   */
  void chmodDurably(Path path, int mode) throws IOException;

  /**
   * Durably sets the owner of an existing regular file or directory: {@code chown}, then
   * {@code fsync} of the entry. ENOENT when absent; EINVAL for any other kind of entry.
   */
  void chownDurably(Path path, int uid, int gid) throws IOException;

  /**
   * Takes an exclusive lock on {@code lockFile} (created with mode 0600 when missing) without
   * blocking; empty when another process holds it.
   */
  Optional<HostLock> tryLock(Path lockFile) throws IOException;

  /**
   * The process holding the lock {@link #tryLock} takes on {@code lockFile}, as the kernel tells
   * it; empty when none holds it, the file does not exist, or the kernel does not say.
   */
  OptionalLong lockHolder(Path lockFile) throws IOException;
}
