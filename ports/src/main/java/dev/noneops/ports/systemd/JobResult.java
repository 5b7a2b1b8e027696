package dev.noneops.ports.systemd;

/**
 * How a systemd job ended, as systemd's {@code JobRemoved} signal reports it, plus
 * {@link #WAIT_TIMEOUT} when the caller's deadline passed before the job ended.
 */
public enum JobResult {
  DONE,
  CANCELED,
  TIMEOUT,
  FAILED,
  DEPENDENCY,
  SKIPPED,
  /** The caller stopped waiting: the job had not ended by the deadline it was given. */
  WAIT_TIMEOUT;

  public boolean succeeded() {
    return this == DONE;
  }

  /** The constant for systemd's result string ({@code "done"}, {@code "failed"}, ...). */
  public static JobResult fromSystemd(String result) {
    return switch (result) {
      case "done" -> DONE;
      case "canceled" -> CANCELED;
      case "timeout" -> TIMEOUT;
      case "failed" -> FAILED;
      case "dependency" -> DEPENDENCY;
      case "skipped" -> SKIPPED;
      default -> throw new IllegalArgumentException("unknown systemd job result: " + result);
    };
  }
}
