package dev.noneops.ports.systemd;

/**
 * A standing watch on units' state changes ({@link Systemd#watch}): it calls its consumer until
 * closed, so whoever watches says when it stops listening.
 */
public interface Subscription extends AutoCloseable {
  /** Ends the watch: no call starts after it returns. Idempotent. */
  @Override
  void close();
}
