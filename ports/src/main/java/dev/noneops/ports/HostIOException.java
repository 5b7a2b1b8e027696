package dev.noneops.ports;

import java.io.IOException;
import java.util.Objects;

/**
 * A host operation failed with an operating-system error. Carries the errno, the operation
 * ("write", "rename", "umount2", ...) and the path or object it was applied to, so every error
 * that reaches an operator says what was being done to what.
 */
public class HostIOException extends IOException {
  private static final long serialVersionUID = 1L;

  private final Errno errno;
  private final String operation;
  private final String target;

  public HostIOException(Errno errno, String operation, String target) {
    this(errno, operation, target, null);
  }

  public HostIOException(Errno errno, String operation, String target, Throwable cause) {
    this(errno, operation, target, "", cause);
  }

  /**
   * An error with what the host said about it besides the errno ({@code detail}, e.g. a
   * program's error line), which the message ends with.
   */
  public HostIOException(
      Errno errno, String operation, String target, String detail, Throwable cause) {
    super(
        operation + " " + target + ": " + Objects.requireNonNull(errno, "errno")
            + (detail == null || detail.isBlank() ? "" : ": " + detail.strip()),
        cause);
    this.errno = errno;
    this.operation = Objects.requireNonNull(operation, "operation");
    this.target = Objects.requireNonNull(target, "target");
  }

  public Errno errno() {
    return errno;
  }

  public String operation() {
    return operation;
  }

  public String target() {
    return target;
  }

  /** Whether {@code t}, or any of its causes, is a host error with the given errno. */
  public static boolean hasErrno(Throwable t, Errno errno) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof HostIOException h && h.errno == errno) {
        return true;
      }
    }
    return false;
  }
}
