package dev.noneops.ports.systemd;

import java.time.Duration;
import java.util.List;
import java.util.Set;

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
