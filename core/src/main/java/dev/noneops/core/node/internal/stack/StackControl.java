package dev.noneops.core.node.internal.stack;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.layout.NodeConstants;
import dev.noneops.core.node.ReadinessTimeoutException;
import dev.noneops.core.node.TimeoutOptions;
import dev.noneops.core.node.UnitJobException;
import dev.noneops.ports.health.HealthProbes;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.ports.time.HostClock;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Starts, stops and restarts the node's units and waits, boundedly, until they are ready. Every
 * job must end {@code done}; every wait ends in a {@link ReadinessTimeoutException} naming the
 * unit and the time waited.
 */
public final class StackControl {
  /** kubelet's healthz endpoint. */
  public static final URI KUBELET_HEALTHZ = NodeConstants.KUBELET_HEALTHZ;

  /**
   * How often kubelet's healthz is probed during the {@link #HEALTHZ_FIRST_PERIOD} after kubelet
   * is active (at most the poll interval): a refused connection on loopback costs well under a
   * millisecond, and an upgraded kubelet usually begins answering within that period, so it is
   * seen healthy sooner; after it, the poll interval.
   */
  public static final Duration HEALTHZ_FIRST_INTERVAL = Duration.ofMillis(5);

  /** How long after kubelet is active healthz is probed every {@link #HEALTHZ_FIRST_INTERVAL}. */
  public static final Duration HEALTHZ_FIRST_PERIOD = Duration.ofSeconds(1);

  private final Systemd systemd;
  private final HealthProbes probes;
  private final HostClock clock;
  private final TimeoutOptions timeouts;

  public StackControl(
      Systemd systemd, HealthProbes probes, HostClock clock, TimeoutOptions timeouts) {
    this.systemd = systemd;
    this.probes = probes;
    this.clock = clock;
    this.timeouts = timeouts;
  }

  public void start(String unit) {
    require(unit, "start", systemd.start(unit, timeouts.unitJob()));
  }

  /**
   * Starts {@code units} in one request to systemd ({@link Systemd#startAll}): it runs them side by
   * side where their ordering allows. Every job must end {@code done}; the first that did not is
   * thrown, the others' failures suppressed in it.
   */
  public void startAll(List<String> units) {
    requireAll(units, "start", systemd.startAll(units, timeouts.unitJob()));
  }

  /**
   * Stops {@code units} in one request to systemd ({@link Systemd#stopAll}), which stops each after
   * the units ordered after it. Should one be unknown to systemd, they are stopped one by one
   * instead, an unknown one counting as stopped ({@link #stop}).
   */
  public void stopAll(List<String> units) {
    List<JobResult> results;
    try {
      results = systemd.stopAll(units, timeouts.unitJob());
    } catch (SystemdException e) {
      if (e.kind() != SystemdException.Kind.NO_SUCH_UNIT) {
        throw e;
      }
      units.forEach(this::stop);
      return;
    }
    requireAll(units, "stop", results);
  }

  public void restart(String unit) {
    require(unit, "restart", systemd.restart(unit, timeouts.unitJob()));
  }

  /** Stops {@code unit}; a unit systemd does not know is already stopped. */
  public void stop(String unit) {
    JobResult result;
    try {
      result = systemd.stop(unit, timeouts.unitJob());
    } catch (SystemdException e) {
      if (e.kind() == SystemdException.Kind.NO_SUCH_UNIT) {
        return;
      }
      throw e;
    }
    require(unit, "stop", result);
  }

  public boolean isActive(String unit) {
    return systemd.status(unit).isActive();
  }

  /**
   * Waits until kubelet is active and its healthz answers 200. The active state is awaited as
   * systemd reports it ({@link Systemd#awaitState}, event-driven over D-Bus); healthz has no event,
   * so it is then probed, every {@link #HEALTHZ_FIRST_INTERVAL} for the {@link
   * #HEALTHZ_FIRST_PERIOD} and every {@link TimeoutOptions#pollInterval()} after, until it answers
   * while kubelet is still active, which systemd's signals tell ({@link WatchedUnitState}) without
   * a call per round. One deadline bounds both waits.
   */
  public void awaitKubelet(String unit) throws InterruptedException {
    long begin = clock.nanoTime();
    try (WatchedUnitState state = WatchedUnitState.watch(systemd, unit)) {
      UnitStatus status =
          systemd.awaitState(unit, Set.of(ActiveState.ACTIVE), timeouts.kubeletReady());
      if (!status.isActive()) {
        throw new ReadinessTimeoutException(
            unit, Duration.ofNanos(clock.nanoTime() - begin), describe(status));
      }
      state.seen(status);
      long active = clock.nanoTime();
      Duration first = min(HEALTHZ_FIRST_INTERVAL, timeouts.pollInterval());
      await(
          unit,
          "healthz at " + KUBELET_HEALTHZ + " not answering",
          begin,
          timeouts.kubeletReady(),
          () -> clock.nanoTime() - active < HEALTHZ_FIRST_PERIOD.toNanos()
              ? first
              : timeouts.pollInterval(),
          () -> probes.httpOk(KUBELET_HEALTHZ, timeouts.probe()) && state.isActive());
    }
  }

  /** Waits until {@code unit} is active. */
  public void awaitActive(String unit, Duration timeout) throws InterruptedException {
    long begin = clock.nanoTime();
    UnitStatus status = systemd.awaitState(unit, Set.of(ActiveState.ACTIVE), timeout);
    if (!status.isActive()) {
      throw new ReadinessTimeoutException(
          unit, Duration.ofNanos(clock.nanoTime() - begin), describe(status));
    }
  }

  /** Waits until LocalDNS answers queries on its address. */
  public void awaitLocalDns(String unit, LocalDnsSpec dns) throws InterruptedException {
    await(
        unit,
        "no DNS answer on " + dns.bindAddress() + ":" + dns.port(),
        clock.nanoTime(),
        timeouts.localDnsReady(),
        timeouts::pollInterval,
        () -> probes.dnsAnswers(
            dns.bindAddress(), dns.port(), dns.clusterDomain(), timeouts.probe()));
  }

  /**
   * Polls {@code ready}, pausing {@code pause} between tries, until it holds or {@code timeout} has
   * passed since {@code begin}; {@code unready} says what is missing while the unit is active.
   */
  private void await(
      String unit,
      String unready,
      long begin,
      Duration timeout,
      Supplier<Duration> pause,
      BooleanSupplier ready)
      throws InterruptedException {
    while (true) {
      if (ready.getAsBoolean()) {
        return;
      }
      Duration waited = Duration.ofNanos(clock.nanoTime() - begin);
      if (waited.compareTo(timeout) >= 0) {
        UnitStatus status = systemd.status(unit);
        throw new ReadinessTimeoutException(
            unit, waited, status.isActive() ? "active; " + unready : describe(status));
      }
      clock.sleep(min(timeout.minus(waited), pause.get()));
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private void requireAll(List<String> units, String operation, List<JobResult> results) {
    UnitJobException first = null;
    for (int i = 0; i < units.size(); i++) {
      if (!results.get(i).succeeded()) {
        UnitJobException failed = new UnitJobException(
            units.get(i), operation, results.get(i), systemd.status(units.get(i)));
        if (first == null) {
          first = failed;
        } else {
          first.addSuppressed(failed);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private void require(String unit, String operation, JobResult result) {
    if (!result.succeeded()) {
      throw new UnitJobException(unit, operation, result, systemd.status(unit));
    }
  }

  private static String describe(UnitStatus status) {
    return status.active().name().toLowerCase(Locale.ROOT) + "/" + status.sub()
        + (status.result().isEmpty() ? "" : ", result " + status.result());
  }
}
