package dev.noneops.cli;

import dev.noneops.core.node.LockWait;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --lock-timeout DURATION}: how long a mutating command waits for the node lock another
 * noneops process holds (a daemon recovering at its start, an operator's upgrade) before it gives
 * up with exit 5, as {@code apt} waits for its lock.
 */
public final class LockTimeoutOption {
  @Option(
      names = "--lock-timeout",
      paramLabel = "DURATION",
      converter = WaitOption.DurationConverter.class,
      description = "How long to wait for the node lock another noneops process holds, e.g. 10s,"
          + " 5m (default: 60s); then exit 5.")
  Duration lockTimeout;

  /** The bound: the option's value, or {@link LockWait#DEFAULT_BOUND}. */
  public Duration timeout() {
    return lockTimeout == null ? LockWait.DEFAULT_BOUND : lockTimeout;
  }
}
