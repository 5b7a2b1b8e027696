package dev.noneops.systemd;

import java.time.Duration;

/**
 * The waits between attempts to reach the bus again after the connection broke: {@link #FIRST},
 * doubling up to {@link #MOST}, so a bus that is back at once is found within a tenth of a second
 * and a bus that stays away costs one attempt every five seconds.
 */
final class ReconnectBackoff {
  static final Duration FIRST = Duration.ofMillis(100);
  static final Duration MOST = Duration.ofSeconds(5);

  private Duration next = FIRST;

  /** The wait before the next attempt; each call doubles the one after, up to {@link #MOST}. */
  Duration next() {
    Duration now = next;
    Duration doubled = next.multipliedBy(2);
    next = doubled.compareTo(MOST) > 0 ? MOST : doubled;
    return now;
  }
}
