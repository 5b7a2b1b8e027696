package dev.noneops.hostfs.download;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how patiently a transient download failure is retried: up to {@code maxAttempts}
 * attempts in all, waiting {@code initialBackoff} before the second and doubling up to
 * {@code maxBackoff}.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

  /** Four attempts, waiting 0.5 s, 1 s, 2 s between them. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(8));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "backoffs must satisfy 0 <= initial <= max: " + initialBackoff + ", " + maxBackoff);
    }
  }

  /**
   * The wait before attempt {@code attempt + 1}, after {@code attempt} failed (1-based), at least
   * what the server asked for with {@code Retry-After}, never more than {@code maxBackoff}.
   */
  public Duration backoffAfter(int attempt, Duration serverAsked) {
    Duration wait = initialBackoff;
    for (int i = 1; i < attempt && wait.compareTo(maxBackoff) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    if (serverAsked.compareTo(wait) > 0) {
      wait = serverAsked;
    }
    return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
  }
}
