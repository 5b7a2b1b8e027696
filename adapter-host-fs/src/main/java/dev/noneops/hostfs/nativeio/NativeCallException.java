package dev.noneops.hostfs.nativeio;

/**
 * Raised by {@link ThrowingPosixHandler} when jnr-posix reports a failed call through its handler
 * instead of a return code; {@link Syscalls} turns it back into an errno.
 */
final class NativeCallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int errno;

  NativeCallException(int errno, String detail) {
    super(detail, null, false, false);
    this.errno = errno;
  }

  int errno() {
    return errno;
  }
}
