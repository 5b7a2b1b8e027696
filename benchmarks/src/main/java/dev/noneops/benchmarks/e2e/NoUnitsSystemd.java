package dev.noneops.benchmarks.e2e;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The systemd of the synthetic teardown node: the node has no unit files (the figure is about
 * processes, cgroups and mounts), so every unit is unknown. Any mutating call would mean the
 * teardown acted on a unit it should not know, and fails loudly instead of pretending; a reload
 * re-reads nothing.
 */
final class NoUnitsSystemd implements Systemd {
  /** A running systemd of the version the project is built against. */
  @Override
  public ManagerState manager() {
    return new ManagerState("252", "running");
  }

  @Override
  public UnitStatus status(String unit) {
    return new UnitStatus(unit, LoadState.NOT_FOUND, ActiveState.INACTIVE, "dead", 0, "", "");
  }

  @Override
  public UnitStatus awaitState(String unit, Set<ActiveState> wanted, Duration timeout) {
    return status(unit);
  }

  /** A node without units has nothing to signal: the caller polls. */
  @Override
  public Subscription watch(Set<String> units, Consumer<UnitStatus> onChange) {
    throw new SystemdException(
        SystemdException.Kind.OTHER, "", "the synthetic node's systemd sends no signals");
  }

  @Override
  public void daemonReload() {
    // With no unit files there is nothing to re-read; the teardown reloads after removing units.
  }

  @Override
  public JobResult start(String unit, Duration timeout) {
    throw unexpected("start " + unit);
  }

  @Override
  public JobResult stop(String unit, Duration timeout) {
    throw unexpected("stop " + unit);
  }

  @Override
  public JobResult restart(String unit, Duration timeout) {
    throw unexpected("restart " + unit);
  }

  @Override
  public void enable(List<String> units) {
    throw unexpected("enable " + units);
  }

  @Override
  public void disable(List<String> units) {
    throw unexpected("disable " + units);
  }

  @Override
  public void resetFailed(String unit) {
    throw unexpected("reset-failed " + unit);
  }

  @Override
  public void kill(String unit, boolean all, int signal) {
    throw unexpected("kill " + unit);
  }

  private static IllegalStateException unexpected(String call) {
    return new IllegalStateException(
        "the synthetic node has no units, yet the teardown called systemd: " + call);
  }
}
