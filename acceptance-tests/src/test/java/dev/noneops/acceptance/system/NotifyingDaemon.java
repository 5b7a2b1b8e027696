package dev.noneops.acceptance.system;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.service.ServiceNotifier;
import java.time.Duration;

/**
 * A tiny daemon for {@code Type=notify} units, run by the sandbox's systemd in a JVM of its own: it
 * starts up for {@link #START_UP}, sends {@code READY=1} through the real notifier, then either
 * sends keep-alives at a quarter of its watchdog interval ({@code keeps-alive}) or none
 * ({@code falls-silent}). It exits 2 when it was started without a manager or a watchdog.
 */
public final class NotifyingDaemon {
  static final Duration START_UP = Duration.ofMillis(1500);

  private NotifyingDaemon() {}

  public static void main(String[] args) throws Exception {
    ServiceNotifier notifier = RealHost.create().notifier();
    if (!notifier.enabled() || notifier.watchdogInterval().isEmpty()) {
      System.exit(2);
    }
    Duration interval = notifier.watchdogInterval().get();
    boolean keepsAlive = args.length > 0 && args[0].equals("keeps-alive");
    notifier.status("starting up");
    Thread.sleep(START_UP.toMillis());
    notifier.ready();
    notifier.status(keepsAlive ? "serving" : "serving, but sending no keep-alives");
    while (true) {
      Thread.sleep(interval.dividedBy(4).toMillis());
      if (keepsAlive) {
        notifier.watchdog();
      }
    }
  }
}
