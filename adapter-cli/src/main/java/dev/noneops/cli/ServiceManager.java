package dev.noneops.cli;

import dev.noneops.daemon.NodeDaemon;
import dev.noneops.ports.service.ServiceNotifier;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The daemon's side of the notification protocol: {@code READY=1}, {@code STATUS=} and
 * {@code STOPPING=1} through the {@link ServiceNotifier} port, and a watchdog thread that sends
 * {@code WATCHDOG=1} at half the unit's {@code WatchdogSec=} for as long as the daemon is alive
 * ({@link NodeDaemon#alive(Duration)}): a loop that stops moving outside an operation, or a daemon
 * that cannot reach systemd, stops the keep-alives, and systemd restarts the daemon. A failed notification is logged, never fatal.
 */
final class ServiceManager implements NodeDaemon.Listener {
  private final ServiceNotifier notifier;
  private final Logger log;

  ServiceManager(ServiceNotifier notifier, Logger log) {
    this.notifier = notifier;
    this.log = log;
  }

  /** The keep-alive thread; closing it stops it. */
  interface Watchdog extends AutoCloseable {
    @Override
    void close();
  }

  @Override
  public void ready() {
    send("READY=1", notifier::ready);
  }

  @Override
  public void status(String line) {
    send("STATUS", () -> notifier.status(line));
  }

  void stopping() {
    send("STOPPING=1", notifier::stopping);
  }

  /** Starts keep-alives for {@code daemon} when a watchdog watches this process. */
  Watchdog watchdog(NodeDaemon daemon) {
    Optional<Duration> interval = notifier.watchdogInterval();
    if (interval.isEmpty()) {
      return () -> {};
    }
    Duration every = interval.get().dividedBy(2);
    Thread thread = new Thread(
        () -> {
          while (!Thread.currentThread().isInterrupted()) {
            if (daemon.alive(interval.get())) {
              send("WATCHDOG=1", notifier::watchdog);
            } else if (daemon.systemdUnreachableSince().isPresent()) {
              log.error(
                  "systemd has been unreachable since {}: no keep-alive",
                  daemon.systemdUnreachableSince().get());
            } else {
              log.error("the daemon's loop has not moved for {}: no keep-alive", interval.get());
            }
            try {
              Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
              return;
            }
          }
        },
        "noneops-watchdog");
    thread.setDaemon(true);
    thread.start();
    return thread::interrupt;
  }

  private interface Send {
    void run() throws IOException;
  }

  private void send(String what, Send send) {
    try {
      send.run();
    } catch (IOException | RuntimeException e) {
      log.warn("cannot notify the service manager ({}): {}", what, e.getMessage());
    }
  }
}
