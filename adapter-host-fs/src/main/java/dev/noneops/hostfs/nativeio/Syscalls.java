package dev.noneops.hostfs.nativeio;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;
import jnr.constants.platform.OpenFlags;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * The few POSIX calls the host adapters make through jnr-posix, each reporting failure as a
 * {@link HostIOException} with the kernel's exact errno.
 *
 * <p>Only the native implementation is acceptable: jnr-posix silently falls back to a pure-Java
 * emulation that lacks {@code kill}, {@code flock} and precise errors when its native library
 * cannot be loaded (for instance from a {@code noexec} temp directory), so {@link #load()} fails
 * loudly instead.
 */
public final class Syscalls {

  private static final int LOCK_EX = 2;
  private static final int LOCK_NB = 4;
  private static final int EWOULDBLOCK = 11;

  private static volatile Syscalls shared;

  private final POSIX posix;

  private Syscalls(POSIX posix) {
    this.posix = posix;
  }

  /**
   * The process-wide native binding.
   *
   * @throws IllegalStateException when jnr-posix cannot call the C library natively
   */
  public static Syscalls load() {
    Syscalls s = shared;
    if (s == null) {
      synchronized (Syscalls.class) {
        s = shared;
        if (s == null) {
          s = new Syscalls(requireNative(POSIXFactory.getNativePOSIX(new ThrowingPosixHandler())));
          shared = s;
        }
      }
    }
    return s;
  }

  static POSIX requireNative(POSIX posix) {
    if (posix == null || !posix.isNative()) {
      throw new IllegalStateException(
          "jnr-posix could not load its native library, so kill, flock and exact errno reporting are unavailable;"
              + " check that the JVM may execute files it extracts (jffi.extract.dir, TMPDIR not mounted noexec)");
    }
    return posix;
  }

  /** {@code isatty(3)}: whether file descriptor {@code fd} (2 for stderr) is a terminal. */
  public boolean isTerminal(int fd) {
    return posix.isatty(fd) == 1;
  }

  /** {@code lstat(2)}; empty on ENOENT. */
  public Optional<FileStat> lstat(Path path) throws HostIOException {
    FileStat stat = posix.allocateStat();
    int rc = call(() -> posix.lstat(path.toString(), stat));
    if (rc == -Errno.ENOENT.number()) {
      return Optional.empty();
    }
    check(rc, "lstat", path);
    return Optional.of(stat);
  }

  /** {@code stat(2)}, following symlinks; empty on ENOENT. */
  public Optional<FileStat> stat(Path path) throws HostIOException {
    FileStat stat = posix.allocateStat();
    int rc = call(() -> posix.stat(path.toString(), stat));
    if (rc == -Errno.ENOENT.number()) {
      return Optional.empty();
    }
    check(rc, "stat", path);
    return Optional.of(stat);
  }

  public void mkdir(Path dir, int mode) throws HostIOException {
    check(call(() -> posix.mkdir(dir.toString(), mode)), "mkdir", dir);
  }

  /** {@code chmod(2)}, following a final symlink. */
  public void chmod(Path path, int mode) throws HostIOException {
    check(call(() -> posix.chmod(path.toString(), mode)), "chmod", path);
  }

  /** {@code fchmodat(AT_SYMLINK_NOFOLLOW)}: Linux refuses it for a symlink (EOPNOTSUPP). */
  public void lchmod(Path path, int mode) throws HostIOException {
    check(call(() -> posix.lchmod(path.toString(), mode)), "chmod", path);
  }

  public void lchown(Path path, int uid, int gid) throws HostIOException {
    check(call(() -> posix.lchown(path.toString(), uid, gid)), "chown", path);
  }

  public void rmdir(Path dir) throws HostIOException {
    check(call(() -> posix.rmdir(dir.toString())), "rmdir", dir);
  }

  /** {@code unlink(2)}; returns the negated errno instead of throwing, so callers can try rmdir on EISDIR. */
  public int unlinkOrErrno(Path path) {
    int rc = call(() -> posix.unlink(path.toString()));
    return rc < 0 ? rc : 0;
  }

  public void symlink(String target, Path link) throws HostIOException {
    check(call(() -> posix.symlink(target, link.toString())), "symlink", link);
  }

  /** {@code kill(2)}: false when the process does not exist (ESRCH). */
  public boolean kill(long pid, int signal) throws HostIOException {
    int rc = call(() -> posix.kill(pid, signal));
    if (rc == -Errno.ESRCH.number()) {
      return false;
    }
    check(rc, "kill", "pid " + pid);
    return true;
  }

  /**
   * Opens (creating with exactly {@code createMode} when missing) and {@code flock(LOCK_EX|LOCK_NB)}s
   * a lock file. Returns the descriptor holding the lock, or empty when another open file
   * description holds it. The descriptor is close-on-exec so commands never inherit the lock.
   */
  public OptionalInt tryLockExclusive(Path lockFile, int createMode) throws HostIOException {
    int flags = OpenFlags.O_RDWR.intValue()
        | OpenFlags.O_CLOEXEC.intValue()
        | OpenFlags.O_NOFOLLOW.intValue();
    int created = OpenFlags.O_CREAT.intValue() | OpenFlags.O_EXCL.intValue();
    int fd = call(() -> posix.open(lockFile.toString(), flags | created, createMode));
    boolean fresh = fd >= 0;
    if (fd == -Errno.EEXIST.number()) {
      fd = call(() -> posix.open(lockFile.toString(), flags, 0));
    }
    check(fd, "open", lockFile);
    try {
      if (fresh) {
        int descriptor = fd;
        check(call(() -> posix.fchmod(descriptor, createMode)), "chmod", lockFile);
      }
      int descriptor = fd;
      int rc = call(() -> posix.flock(descriptor, LOCK_EX | LOCK_NB));
      if (rc == -EWOULDBLOCK) {
        close(fd);
        return OptionalInt.empty();
      }
      check(rc, "flock", lockFile);
      return OptionalInt.of(fd);
    } catch (HostIOException | RuntimeException e) {
      close(fd);
      throw e;
    }
  }

  /** {@code close(2)}, ignoring errors (the descriptor is gone either way on Linux). */
  public void close(int fd) {
    call(() -> posix.close(fd));
  }

  /** The C library's message for an errno, as the JDK also reports it. */
  public String strerror(int errno) {
    return posix.strerror(errno);
  }

  /** Sets the process umask, returning the previous one. */
  public int umask(int mask) {
    return posix.umask(mask);
  }

  private int call(IntSupplier syscall) {
    try {
      int rc = syscall.getAsInt();
      return rc < 0 ? -Math.max(1, posix.errno()) : rc;
    } catch (NativeCallException e) {
      return -e.errno();
    }
  }

  private void check(int rc, String operation, Object target) throws HostIOException {
    if (rc < 0) {
      throw failure(-rc, operation, String.valueOf(target));
    }
  }

  /**
   * A {@link HostIOException} for a raw errno; an errno the port does not name keeps its number
   * and message in the cause.
   */
  public HostIOException failure(int errno, String operation, String target) {
    Errno named = Errno.of(errno);
    IOException detail =
        named == Errno.EOTHER ? new IOException("errno " + errno + ": " + strerror(errno)) : null;
    return new HostIOException(named, operation, target, detail);
  }
}
