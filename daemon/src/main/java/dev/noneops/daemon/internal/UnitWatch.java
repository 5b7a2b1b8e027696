package dev.noneops.daemon.internal;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The daemon's watch on the stack's units: their state changes come from systemd's signals
 * ({@link Systemd#watch}), so a failure is in the journal (priority error) the moment systemd
 * signals it, and {@code onFailure} wakes the daemon's loop. A failure is a unit that is {@code
 * failed}, or one whose process died and that systemd restarts: the stack's units are {@code
 * Restart=always}, so a crash shows as {@code activating (auto-restart)}, never as {@code failed}
 * (unless the restarts run out). When the signals cannot be subscribed
 * to, that is said once and {@link #poll()} reads the units at every tick instead.
 *
 * <p>Changes may arrive on another thread than the daemon's: the states seen are guarded by this
 * object's monitor, which is never held while systemd is called (systemd may call back holding its
 * own lock).
 */
public final class UnitWatch implements AutoCloseable {
  private static final String FAILED = "failed";
  private static final String AUTO_RESTART = "auto-restart";

  private final Systemd systemd;
  private final List<String> units;
  private final Logger log;
  private final Runnable onFailure;
  private final Map<String, String> states = new LinkedHashMap<>();
  private Optional<Subscription> subscription = Optional.empty();
  private boolean polling;

  public UnitWatch(Systemd systemd, List<String> units, Logger log, Runnable onFailure) {
    this.systemd = systemd;
    this.units = List.copyOf(units);
    this.log = log;
    this.onFailure = onFailure;
  }

  /** Each unit's active state as last seen ({@code active}, {@code failed}, ...). */
  public synchronized Map<String, String> states() {
    return Map.copyOf(states);
  }

  /** Subscribes to the units' changes, then takes their states now as where changes count from. */
  public void start() {
    try {
      Subscription watch = systemd.watch(new LinkedHashSet<>(units), this::changed);
      synchronized (this) {
        subscription = Optional.of(watch);
      }
    } catch (RuntimeException e) {
      log.warn(
          "cannot subscribe to systemd's signals of the stack's units ({}); the daemon polls the"
              + " units at every tick",
          e.getMessage());
      synchronized (this) {
        polling = true;
      }
    }
    for (String unit : units) {
      String now = read(unit);
      synchronized (this) {
        states.putIfAbsent(unit, now);
      }
    }
  }

  /** At a tick: reads the units when no subscription tells their changes. */
  public void poll() {
    synchronized (this) {
      if (!polling) {
        return;
      }
    }
    for (String unit : units) {
      seen(unit, read(unit));
    }
  }

  @Override
  public void close() {
    Optional<Subscription> watch;
    synchronized (this) {
      watch = subscription;
      subscription = Optional.empty();
    }
    watch.ifPresent(Subscription::close);
  }

  /** A change systemd signalled. */
  public void changed(UnitStatus status) {
    String now = state(status);
    if (seen(status.unit(), now) && (now.equals(FAILED) || now.equals(AUTO_RESTART))) {
      onFailure.run();
    }
  }

  /** @return whether the unit's state changed */
  private synchronized boolean seen(String unit, String now) {
    String before = states.put(unit, now);
    if (before == null && (now.equals(FAILED) || now.equals(AUTO_RESTART))) {
      log.error("{} failed{}", unit, now.equals(AUTO_RESTART) ? "; systemd restarts it" : "");
      return true;
    }
    if (before == null || before.equals(now)) {
      return false;
    }
    switch (now) {
      case FAILED -> log.error("{} failed (was {})", unit, before);
      case AUTO_RESTART -> log.error("{} failed (was {}); systemd restarts it", unit, before);
      case "active" -> log.info("{} is active again (was {})", unit, before);
      case "inactive", "unknown" -> log.warn("{} is {} (was {})", unit, now, before);
      default -> log.debug("{} is {} (was {})", unit, now, before);
    }
    return true;
  }

  private String read(String unit) {
    try {
      return state(systemd.status(unit));
    } catch (RuntimeException e) {
      return "unknown";
    }
  }

  /** The unit's active state, or {@code auto-restart} while systemd waits to restart it. */
  private static String state(UnitStatus status) {
    if (status.active() == ActiveState.ACTIVATING && status.sub().equals(AUTO_RESTART)) {
      return AUTO_RESTART;
    }
    return status.active().name().toLowerCase(Locale.ROOT);
  }
}
