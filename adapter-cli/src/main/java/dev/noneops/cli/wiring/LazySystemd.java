package dev.noneops.cli.wiring;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.DbusSystemd;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The systemd port, connected to the bus on first use: commands that never talk to systemd
 * ({@code version-for}, {@code plan}, {@code versions}, {@code verify}) run on a host whose
 * systemd is down or absent, and the others connect once.
 */
final class LazySystemd implements Systemd, AutoCloseable {
  private final Supplier<DbusSystemd> connect;
  private DbusSystemd connected;

  LazySystemd(Supplier<DbusSystemd> connect) {
    this.connect = connect;
  }

  private synchronized Systemd bus() {
    if (connected == null) {
      connected = connect.get();
    }
    return connected;
  }

  @Override
  public void daemonReload() {
    bus().daemonReload();
  }

  @Override
  public JobResult start(String unit, Duration timeout) {
    return bus().start(unit, timeout);
  }

  @Override
  public JobResult stop(String unit, Duration timeout) {
    return bus().stop(unit, timeout);
  }

  @Override
  public List<JobResult> startAll(List<String> units, Duration timeout) {
    return bus().startAll(units, timeout);
  }

  @Override
  public List<JobResult> stopAll(List<String> units, Duration timeout) {
    return bus().stopAll(units, timeout);
  }

  @Override
  public JobResult restart(String unit, Duration timeout) {
    return bus().restart(unit, timeout);
  }

  @Override
  public ManagerState manager() {
    return bus().manager();
  }

  @Override
  public UnitStatus status(String unit) {
    return bus().status(unit);
  }

  @Override
  public UnitStatus awaitState(String unit, Set<ActiveState> wanted, Duration timeout) {
    return bus().awaitState(unit, wanted, timeout);
  }

  @Override
  public Subscription watch(Set<String> units, Consumer<UnitStatus> onChange) {
    return bus().watch(units, onChange);
  }

  @Override
  public void enable(List<String> units) {
    bus().enable(units);
  }

  @Override
  public void disable(List<String> units) {
    bus().disable(units);
  }

  @Override
  public void resetFailed(String unit) {
    bus().resetFailed(unit);
  }

  @Override
  public void kill(String unit, boolean all, int signal) {
    bus().kill(unit, all, signal);
  }

  @Override
  public synchronized void close() {
    if (connected != null) {
      connected.close();
      connected = null;
    }
  }
}
