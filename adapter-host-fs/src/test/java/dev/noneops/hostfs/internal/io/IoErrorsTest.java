package dev.noneops.hostfs.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class IoErrorsTest {

  @Test
  void mapsTheJdksTypedExceptions() {
    assertThat(IoErrors.translate(new NoSuchFileException("/x"), "read", Path.of("/x"))
            .errno())
        .isEqualTo(Errno.ENOENT);
    assertThat(IoErrors.translate(new DirectoryNotEmptyException("/x"), "rmdir", "/x")
            .errno())
        .isEqualTo(Errno.ENOTEMPTY);
    assertThat(
            IoErrors.translate(new AtomicMoveNotSupportedException("/a", "/b", "x"), "rename", "/a")
                .errno())
        .isEqualTo(Errno.EXDEV);
    assertThat(IoErrors.translate(new NotLinkException("/x"), "readlink", "/x").errno())
        .isEqualTo(Errno.EINVAL);
  }

  @Test
  void recoversTheErrnoFromTheCLibrarysMessage() {
    assertThat(IoErrors.translate(new IOException("No space left on device"), "write", "/f")
            .errno())
        .isEqualTo(Errno.ENOSPC);
    assertThat(IoErrors.translate(new IOException("Input/output error"), "write", "/f")
            .errno())
        .isEqualTo(Errno.EIO);
    assertThat(IoErrors.translate(
                new FileSystemException("/m", null, "Device or resource busy"), "rmdir", "/m")
            .errno())
        .isEqualTo(Errno.EBUSY);
    assertThat(IoErrors.translate(
                new FileSystemException("/f", null, "Read-only file system"), "write", "/f")
            .errno())
        .isEqualTo(Errno.EROFS);
    assertThat(IoErrors.translate(
                new FileSystemException(
                    "/l",
                    null,
                    "Too many levels of symbolic links or unable to access attributes of symbolic link"),
                "read",
                "/l")
            .errno())
        .isEqualTo(Errno.ELOOP);
  }

  @Test
  void keepsTheOperationTargetAndCause() {
    IOException cause = new IOException("Operation not permitted");

    HostIOException e = IoErrors.translate(cause, "chown", Path.of("/etc/x"));

    assertThat(e.errno()).isEqualTo(Errno.EPERM);
    assertThat(e.operation()).isEqualTo("chown");
    assertThat(e.target()).isEqualTo("/etc/x");
    assertThat(e.getCause()).isSameAs(cause);
    assertThat(e).hasMessage("chown /etc/x: EPERM");
  }

  @Test
  void reportsEotherForTextsThatNameNoErrno() {
    assertThat(
            IoErrors.translate(new IOException("something odd"), "read", "/f").errno())
        .isEqualTo(Errno.EOTHER);
    assertThat(IoErrors.translate(new IOException(), "read", "/f").errno()).isEqualTo(Errno.EOTHER);
  }

  @Test
  void passesHostErrorsThrough() {
    HostIOException original = new HostIOException(Errno.EBUSY, "umount2", "/m");

    assertThat(IoErrors.translate(original, "other", "/x")).isSameAs(original);
  }
}
