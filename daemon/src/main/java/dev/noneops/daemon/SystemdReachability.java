package dev.noneops.daemon;

import dev.noneops.ports.HostPorts;
import dev.noneops.ports.systemd.SystemdException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * Whether systemd answers the daemon, and since when it does not: read at each tick, which does
 * nothing else while systemd is unreachable (the system bus restarted, say), and by the watchdog,
 * which goes unfed meanwhile. Losing and finding systemd again are each logged once.
 */
final class SystemdReachability {
  private final HostPorts ports;
  private final Logger log;
  private volatile Optional<Instant> unreachableSince = Optional.empty();

  SystemdReachability(HostPorts ports, Logger log) {
    this.ports = ports;
    this.log = log;
  }

  /** Since when systemd does not answer (a call failed at each tick since); empty while it does. */
  Optional<Instant> unreachableSince() {
    return unreachableSince;
  }

  /**
   * At a tick: whether systemd answers (its manager's state is read). While it does not, the tick
   * does nothing else: a changed file waits for systemd rather than fail against it, and is
   * applied at the first tick after systemd is back.
   */
  boolean reachable() {
    try {
      ports.systemd().manager();
    } catch (SystemdException e) {
      if (unreachableSince.isEmpty()) {
        unreachableSince = Optional.of(ports.clock().now());
        log.error(
            "systemd is unreachable ({}): the daemon waits for it, and sends the watchdog no"
                + " keep-alive until it is back",
            e.getMessage());
      }
      return false;
    }
    unreachableSince.ifPresent(since -> log.info(
        "systemd is reachable again (unreachable since {}, {} s)",
        since,
        Duration.between(since, ports.clock().now()).toSeconds()));
    unreachableSince = Optional.empty();
    return true;
  }
}
