package dev.noneops.ports.service;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * Notifications to the service manager that started this process, as {@code sd_notify(3)} sends
 * them: a {@code Type=notify} unit becomes active only once its program sends {@code READY=1},
 * and a unit with {@code WatchdogSec=} is killed when its keep-alives ({@code WATCHDOG=1}) stop.
 *
 * <p>Where the process was not started by a notify-aware manager (no {@code NOTIFY_SOCKET}),
 * {@link #enabled()} is false and every notification does nothing, as {@code sd_notify} returns 0
 * then: a daemon sends the same messages whether or not systemd runs it.
 *
 * <p>Failures follow the ports' contract (package {@code dev.noneops.ports}): a message the
 * manager cannot be sent (its socket gone: {@link dev.noneops.ports.Errno#ECONNREFUSED} or
 * {@link dev.noneops.ports.Errno#ENOENT}; a {@code NOTIFY_SOCKET} that is neither an absolute path
 * nor an abstract {@code @name}: {@link dev.noneops.ports.Errno#EINVAL}) is a
 * {@link dev.noneops.ports.HostIOException}; a status line that would smuggle in another
 * assignment (a line break, a NUL) is an {@link IllegalArgumentException}, raised before anything
 * is sent.
 */
public interface ServiceNotifier {

  /** Whether a service manager listens for notifications ({@code NOTIFY_SOCKET} is set). */
  boolean enabled();

  /** {@code READY=1}: start-up is finished; a {@code Type=notify} unit becomes active. */
  void ready() throws IOException;

  /**
   * {@code RELOADING=1} with the {@code MONOTONIC_USEC=} of now, as systemd wants it for a
   * reload: the daemon sends {@link #ready()} again once the reload is done.
   */
  void reloading() throws IOException;

  /** {@code STOPPING=1}: the daemon has begun to shut down. */
  void stopping() throws IOException;

  /** {@code STATUS=<line>}: one line saying what the daemon is doing, shown by {@code systemctl status}. */
  void status(String line) throws IOException;

  /** {@code WATCHDOG=1}: a keep-alive, which a unit with {@code WatchdogSec=} needs within every interval. */
  void watchdog() throws IOException;

  /**
   * The interval within which the manager expects a {@link #watchdog()} keep-alive, as
   * {@code sd_watchdog_enabled(3)} reads it ({@code WATCHDOG_USEC}, for this process when
   * {@code WATCHDOG_PID} names it or is unset); empty when no watchdog watches this process. A
   * daemon sends keep-alives at about half of it.
   */
  Optional<Duration> watchdogInterval();
}
