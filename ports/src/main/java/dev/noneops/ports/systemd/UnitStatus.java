package dev.noneops.ports.systemd;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of one unit's state.
 *
 * @param unit the unit name, e.g. {@code kubelet.service}
 * @param load whether a unit file was found; {@link LoadState#NOT_FOUND} for an unknown unit
 * @param active the {@code ActiveState}
 * @param sub the {@code SubState} ({@code running}, {@code dead}, {@code exited}, ...)
 * @param mainPid the main process id, 0 when none
 * @param fragmentPath the unit file systemd loaded, empty when none
 * @param result the {@code Result} property of a service ({@code success}, {@code exit-code},
 *     ...); empty when systemd has none
 * @param activeEnteredAt when the unit last entered the active state ({@code
 *     ActiveEnterTimestamp}); empty when it never did since the manager started
 */
public record UnitStatus(
    String unit,
    LoadState load,
    ActiveState active,
    String sub,
    long mainPid,
    String fragmentPath,
    String result,
    Optional<Instant> activeEnteredAt) {

  public UnitStatus {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(active, "active");
    Objects.requireNonNull(sub, "sub");
    Objects.requireNonNull(fragmentPath, "fragmentPath");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(activeEnteredAt, "activeEnteredAt");
  }

  /** A unit that has not been active since the manager started. */
  public UnitStatus(
      String unit,
      LoadState load,
      ActiveState active,
      String sub,
      long mainPid,
      String fragmentPath,
      String result) {
    this(unit, load, active, sub, mainPid, fragmentPath, result, Optional.empty());
  }

  public boolean isActive() {
    return active == ActiveState.ACTIVE || active == ActiveState.RELOADING;
  }

  public boolean isFailed() {
    return active == ActiveState.FAILED;
  }
}
