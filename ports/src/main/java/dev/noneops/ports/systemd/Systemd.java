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
