package dev.noneops.hostfs.internal.io;

import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Translates the JDK's I/O exceptions into {@link HostIOException}s with the errno the kernel
 * reported.
 *
 * <p>The JDK throws a typed exception for a few errnos (ENOENT, EEXIST, EACCES, ...) and otherwise
 * a {@link FileSystemException} or a plain {@link IOException} whose message is the C library's
 * {@code strerror} text. This class recovers the errno from that text by asking the same C library
 * for the text of every errno, so the mapping is exact rather than a guess.
 */
public final class IoErrors {

  private static final int MAX_ERRNO = 133;
  private static final String LOOP_SUFFIX = " or unable to access attributes of symbolic link";

  private static volatile Map<String, Integer> errnoByMessage;

  private IoErrors() {}

  /** The host error for {@code e}, raised while doing {@code operation} to {@code target}. */
  public static HostIOException translate(IOException e, String operation, Path target) {
    return translate(e, operation, String.valueOf(target));
  }

  /** The host error for {@code e}, raised while doing {@code operation} to {@code target}. */
  public static HostIOException translate(IOException e, String operation, String target) {
    if (e instanceof HostIOException h) {
      return h;
    }
    int errno = errnoOf(e);
    if (errno <= 0) {
      return new HostIOException(Errno.EOTHER, operation, target, e);
    }
    return new HostIOException(Errno.of(errno), operation, target, e);
  }

  /** The errno behind a JDK exception, or -1 when it carries none. */
  public static int errnoOf(IOException e) {
    if (e instanceof HostIOException h) {
      return h.errno().number();
    }
    if (e instanceof NoSuchFileException) {
      return Errno.ENOENT.number();
    }
    if (e instanceof FileAlreadyExistsException) {
      return Errno.EEXIST.number();
    }
    if (e instanceof DirectoryNotEmptyException) {
      return Errno.ENOTEMPTY.number();
    }
    if (e instanceof AccessDeniedException) {
      return Errno.EACCES.number();
    }
    if (e instanceof NotDirectoryException) {
      return Errno.ENOTDIR.number();
    }
    if (e instanceof AtomicMoveNotSupportedException) {
      return Errno.EXDEV.number();
    }
    if (e instanceof NotLinkException) {
      return Errno.EINVAL.number();
    }
    if (e instanceof FileSystemLoopException) {
      return Errno.ELOOP.number();
    }
    if (e instanceof ClosedChannelException) {
      return Errno.EBADF.number();
    }
    String text = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    return text == null ? -1 : errnoOfMessage(text);
  }

  /** The errno whose {@code strerror} text is {@code message}, or -1. */
  public static int errnoOfMessage(String message) {
    String text = message.trim();
    if (text.endsWith(LOOP_SUFFIX)) {
      text = text.substring(0, text.length() - LOOP_SUFFIX.length());
    }
    Integer errno = messages().get(text);
    return errno == null ? -1 : errno;
  }

  private static Map<String, Integer> messages() {
    Map<String, Integer> m = errnoByMessage;
    if (m == null) {
      Syscalls syscalls = Syscalls.load();
      Map<String, Integer> built = new HashMap<>();
      for (int errno = MAX_ERRNO; errno >= 1; errno--) {
        // Lower numbers win where two errnos share a text (EAGAIN/EWOULDBLOCK, EDEADLK/EDEADLOCK).
        built.put(syscalls.strerror(errno), errno);
      }
      m = Map.copyOf(built);
      errnoByMessage = m;
    }
    return m;
  }
}
