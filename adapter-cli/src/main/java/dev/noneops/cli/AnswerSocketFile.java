package dev.noneops.cli;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's socket file, root's only: its directory (created by the daemon, mode 0700) and
 * the socket in it (mode 0600). The JDK binds and listens in one call, so the socket is bound in
 * a fresh 0700 directory beside it, given its mode there and only then renamed into place: no
 * instant exists at which the path answers with another mode, whatever the umask. A socket left
 * at the path by a daemon that was killed (nobody listens on it) is replaced; a socket some
 * process still answers on, and anything that is not a socket, are never touched.
 */
final class AnswerSocketFile {
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private final Path path;
  private final Object fileKey;

  private AnswerSocketFile(Path path, Object fileKey) {
    this.path = path;
    this.fileKey = fileKey;
  }

  /** Why the socket was not bound: the daemon runs on without it. */
  static final class NotBoundException extends IOException {
    private static final long serialVersionUID = 1L;

    NotBoundException(String message) {
      super(message);
    }
  }

  /** A bound, listening socket and its file. */
  record Bound(ServerSocketChannel channel, AnswerSocketFile file) {}

  /**
   * Binds a listening socket at {@code path}.
   *
   * @throws NotBoundException when something of another owner is at the path, or its directory
   *     is not a directory
   * @throws IOException when the file system refuses
   */
  static Bound bind(Path path) throws IOException {
    Path dir = Objects.requireNonNull(path.getParent(), "the socket's directory");
    Files.createDirectories(dir);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new NotBoundException(dir + " is not a directory; it is kept");
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    Optional<Integer> mode = mode(path);
    if (mode.isPresent()) {
      if ((mode.get() & S_IFMT) != S_IFSOCK) {
        throw new NotBoundException(path + " exists and is not a socket; it is kept");
      }
      if (answers(path)) {
        throw new NotBoundException(path + " is a socket another process answers on");
      }
    }
    Path scratch = Files.createTempDirectory(
        dir,
        ".bind-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path bound = scratch.resolve(path.getFileName());
    ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      channel.bind(UnixDomainSocketAddress.of(bound));
      Files.setPosixFilePermissions(bound, PosixFilePermissions.fromString("rw-------"));
      Files.move(bound, path, StandardCopyOption.ATOMIC_MOVE);
      Object key = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .fileKey();
      return new Bound(channel, new AnswerSocketFile(path, key));
    } catch (IOException | RuntimeException e) {
      channel.close();
      Files.deleteIfExists(bound);
      throw e;
    } finally {
      Files.deleteIfExists(scratch);
    }
  }

  Path path() {
    return path;
  }

  /** Removes the socket file, when it is still the one this daemon bound. */
  void remove() throws IOException {
    try {
      Object now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .fileKey();
      if (Objects.equals(now, fileKey)) {
        Files.delete(path);
      }
    } catch (NoSuchFileException gone) {
      // removed already (a reset): nothing to do
    }
  }

  /** The file type and permission bits of {@code path} itself; empty when there is nothing. */
  static Optional<Integer> mode(Path path) throws IOException {
    try {
      return Optional.of(
          (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Whether a process accepts connections on the socket at {@code path}. */
  private static boolean answers(Path path) {
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.configureBlocking(false);
      probe.connect(UnixDomainSocketAddress.of(path));
      return true;
    } catch (IOException refused) {
      return false;
    }
  }
}
