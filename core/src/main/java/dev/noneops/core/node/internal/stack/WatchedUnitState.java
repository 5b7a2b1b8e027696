package dev.noneops.core.node.internal.stack;

import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether a unit is active, as systemd's signals last told ({@link Systemd#watch}), so a readiness
 * loop re-checks it each round without a round trip to systemd. Where the signals cannot be
 * subscribed to, or none has told a state yet, systemd is asked.
 */
public final class WatchedUnitState implements AutoCloseable {
  private final Systemd systemd;
  private final String unit;
  private final AtomicReference<UnitStatus> last = new AtomicReference<>();
  private final Optional<Subscription> subscription;

  private WatchedUnitState(Systemd systemd, String unit, boolean subscribe) {
    this.systemd = systemd;
    this.unit = unit;
    this.subscription = subscribe ? subscribe() : Optional.empty();
  }

  /** Starts watching {@code unit}; close it when done. */
  public static WatchedUnitState watch(Systemd systemd, String unit) {
    return new WatchedUnitState(systemd, unit, true);
  }

  private Optional<Subscription> subscribe() {
    try {
      return Optional.of(systemd.watch(Set.of(unit), last::set));
    } catch (SystemdException e) {
      return Optional.empty();
    }
  }

  /** Records {@code status}, read by the caller, unless a signal has told a state already. */
  public void seen(UnitStatus status) {
    last.compareAndSet(null, status);
  }

  /** Whether the unit is active: the last state told, else systemd's answer now. */
  public boolean isActive() {
    UnitStatus status = subscription.isPresent() ? last.get() : null;
    return status != null ? status.isActive() : systemd.status(unit).isActive();
  }

  @Override
  public void close() {
    subscription.ifPresent(Subscription::close);
  }
}
