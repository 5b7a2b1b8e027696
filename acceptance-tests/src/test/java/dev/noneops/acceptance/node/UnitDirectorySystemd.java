package dev.noneops.acceptance.node;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A systemd stand-in for the real-kernel suite, whose subject is files, mounts, processes and
 * cgroups (the real systemd is exercised by the system tests). It knows the unit files of one
 * real directory, keeps which units are active, and does what systemd does to that directory:
 * {@code disable} removes the unit's {@code *.wants} links. Every call is recorded.
 */
final class UnitDirectorySystemd implements Systemd {
  private final Path dir;
  private final Set<String> active = new TreeSet<>();
  private final List<String> calls = new ArrayList<>();

  UnitDirectorySystemd(Path dir) {
    this.dir = dir;
  }

  /** Marks units as running, as after boot. */
  UnitDirectorySystemd running(String... units) {
    active.addAll(List.of(units));
    return this;
  }

  List<String> calls() {
    return List.copyOf(calls);
  }

  boolean isActive(String unit) {
    return active.contains(unit);
  }

  @Override
  public synchronized void daemonReload() {
    calls.add("daemon-reload");
  }

  @Override
  public synchronized JobResult start(String unit, Duration timeout) {
    calls.add("start " + unit);
    requireKnown(unit);
    active.add(unit);
    return JobResult.DONE;
  }

  @Override
  public synchronized JobResult stop(String unit, Duration timeout) {
    calls.add("stop " + unit);
    active.remove(unit);
    return JobResult.DONE;
  }

  @Override
  public synchronized JobResult restart(String unit, Duration timeout) {
    calls.add("restart " + unit);
    requireKnown(unit);
    active.add(unit);
    return JobResult.DONE;
  }

  /** A running systemd of the version the project is built against. */
  @Override
  public synchronized ManagerState manager() {
    return new ManagerState("252", "running");
  }

  @Override
  public synchronized UnitStatus status(String unit) {
    boolean loaded = Files.isRegularFile(dir.resolve(unit));
    boolean running = active.contains(unit);
    return new UnitStatus(
        unit,
        loaded ? LoadState.LOADED : LoadState.NOT_FOUND,
        running ? ActiveState.ACTIVE : ActiveState.INACTIVE,
        running ? "running" : "dead",
        0,
        loaded ? dir.resolve(unit).toString() : "",
        "success");
  }

  @Override
  public synchronized UnitStatus awaitState(
      String unit, Set<ActiveState> wanted, Duration timeout) {
    return status(unit);
  }

  /** A directory of unit files sends no signals: the caller polls. */
  @Override
  public Subscription watch(Set<String> units, Consumer<UnitStatus> onChange) {
    throw new SystemdException(
        SystemdException.Kind.OTHER, "", "a directory of unit files sends no signals");
  }

  @Override
  public synchronized void enable(List<String> units) {
    calls.add("enable " + units);
  }

  @Override
  public synchronized void disable(List<String> units) {
    calls.add("disable " + units);
    for (String unit : units) {
      requireKnown(unit);
      try (DirectoryStream<Path> wants = Files.newDirectoryStream(dir, "*.wants")) {
        for (Path w : wants) {
          Files.deleteIfExists(w.resolve(unit));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public synchronized void resetFailed(String unit) {
    calls.add("reset-failed " + unit);
  }

  @Override
  public synchronized void kill(String unit, boolean all, int signal) {
    calls.add("kill " + unit + " " + signal);
    active.remove(unit);
  }

  private void requireKnown(String unit) {
    if (!Files.isRegularFile(dir.resolve(unit))) {
      throw new SystemdException(
          SystemdException.Kind.NO_SUCH_UNIT, unit, "Unit " + unit + " not found.");
    }
  }
}
