package dev.noneops.ports.systemd;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The systemd manager: unit jobs, unit state, unit files.
 *
 * <p>Job methods enqueue a job in {@code replace} mode and wait, race-free, until systemd reports
 * it removed or {@code timeout} passes ({@link JobResult#WAIT_TIMEOUT}; the job is left running).
 * A start job of a {@code Type=notify} service is {@link JobResult#DONE} once the service reported
 * ready. Calls about a unit systemd does not know raise {@link SystemdException} of kind
 * {@link SystemdException.Kind#NO_SUCH_UNIT} ({@link #status} instead reports
 * {@link LoadState#NOT_FOUND}). Failures are unchecked {@link SystemdException}s, unlike the other
 * ports' checked {@code HostIOException}s (the package {@code dev.noneops.ports} says why).
 */
public interface Systemd {

  /** Re-reads every unit file ({@code daemon-reload}); returns when systemd finished. */
  void daemonReload();

  JobResult start(String unit, Duration timeout);

  JobResult stop(String unit, Duration timeout);

  JobResult restart(String unit, Duration timeout);

  /**
   * Starts every unit of {@code units} as one request, as {@code systemctl start a b c} does: a
   * start job is enqueued for each before any is waited for, so systemd runs them side by side
   * where their ordering dependencies ({@code After=}/{@code Before=}) allow and in that order
   * where they do not; {@code timeout} bounds the wait for each job. Returns each unit's result, in the
   * order of {@code units}. A unit systemd does not know is {@link SystemdException.Kind#NO_SUCH_UNIT}
   * (the jobs of the units before it stay enqueued). This default starts them one after the other.
   */
  default List<JobResult> startAll(List<String> units, Duration timeout) {
    return List.copyOf(units).stream().map(unit -> start(unit, timeout)).toList();
  }

  /**
   * Stops every unit of {@code units} as one request, as {@code systemctl stop a b c} does: systemd
   * stops a unit only after the units ordered after it, and the others side by side. As
   * {@link #startAll} otherwise; this default stops them one after the other, in the order given.
   */
  default List<JobResult> stopAll(List<String> units, Duration timeout) {
    return List.copyOf(units).stream().map(unit -> stop(unit, timeout)).toList();
  }

  /** The unit's current state; an unknown unit is reported, not thrown. */
  UnitStatus status(String unit);

  /**
   * Waits until the unit's {@code ActiveState} is one of {@code wanted} or {@code timeout} passes,
   * and returns the last state seen. Event-driven where the implementation can be.
   */
  UnitStatus awaitState(String unit, Set<ActiveState> wanted, Duration timeout);

  /**
   * Tells {@code onChange} each time the {@code ActiveState} of one of {@code units} changes, with
   * the unit's status as it then is, until the subscription is closed: a unit's failure is known
   * the moment systemd signals it, not at the next poll. Calls come one at a time, possibly on a thread of
   * the implementation's (they must not block for long); a unit that is not loaded yet, or is
   * unloaded and loaded again (a daemon-reload, garbage collection), stays watched.
   *
   * @throws SystemdException when the manager's signals cannot be subscribed to (a caller then
   *     polls {@link #status})
   */
  Subscription watch(Set<String> units, Consumer<UnitStatus> onChange);

  /**
   * Enables unit files (creates their {@code [Install]} symlinks), then reloads if a symlink was
   * created. Enabling what is already enabled changes nothing and costs no reload.
   */
  void enable(List<String> units);

  /**
   * Disables unit files (removes their {@code [Install]} symlinks), then reloads if a symlink was
   * removed.
   */
  void disable(List<String> units);

  /** Clears a failed unit's failed state and its start-rate counter. */
  void resetFailed(String unit);

  /** Sends {@code signal} to the unit's processes: {@code all} of them, or only the main one. */
  void kill(String unit, boolean all, int signal);

  /** The manager's version and overall state; read-only. */
  ManagerState manager();
}
