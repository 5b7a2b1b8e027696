package dev.noneops.hostfs.download;

import java.io.IOException;
import java.time.Duration;

/** Why one attempt ended early, in the terms the retry decision needs. */
final class AttemptFailure extends IOException {
  private static final long serialVersionUID = 1L;

  enum Kind {
    /** The server answered with a status other than 2xx. */
    STATUS,
    /** The body announced or delivered more than the allowed bytes. */
    TOO_LARGE,
    /** Writing the received bytes failed locally (ENOSPC, EIO): not the network's fault. */
    SINK
  }

  private final Kind kind;
  private final int status;
  private final transient Duration retryAfter;

  private AttemptFailure(
      Kind kind, int status, Duration retryAfter, String message, IOException cause) {
    super(message, cause);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }

  static AttemptFailure status(int status, Duration retryAfter) {
    return new AttemptFailure(Kind.STATUS, status, retryAfter, "HTTP status " + status, null);
  }

  static AttemptFailure tooLarge(String detail) {
    return new AttemptFailure(Kind.TOO_LARGE, 0, Duration.ZERO, detail, null);
  }

  static AttemptFailure sink(IOException cause) {
    return new AttemptFailure(Kind.SINK, 0, Duration.ZERO, cause.getMessage(), cause);
  }

  Kind kind() {
    return kind;
  }

  int status() {
    return status;
  }

  Duration retryAfter() {
    return retryAfter;
  }

  /** Whether a status is worth another attempt: 5xx and 429 Too Many Requests. */
  boolean isTransientStatus() {
    return kind == Kind.STATUS && (status >= 500 || status == 429);
  }
}
