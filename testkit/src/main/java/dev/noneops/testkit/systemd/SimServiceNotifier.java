package dev.noneops.testkit.systemd;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.time.VirtualClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The simulated {@link ServiceNotifier}: what the process would send to its service manager,
 * recorded in order with the virtual clock's time, so a test can assert that {@code READY=1}
 * came after recovery and that keep-alives arrive within the watchdog interval.
 *
 * <p>A fresh host's process runs without a manager ({@link #withoutManager()}), as a program
 * started from a shell: notifications do nothing and nothing is recorded. A test puts it under
 * one with {@link #underManager()} or {@link #underManager(Duration)}; {@link #managerGone()}
 * makes every later message fail as a socket nobody listens on does ({@code ECONNREFUSED}).
 * Every notification is a port call (journaled, not mutating: a crash point never falls on it),
 * and fault rules apply to it.
 */
public final class SimServiceNotifier implements ServiceNotifier {
  private static final String PORT = "notifier";

  private final PortGate gate;
  private final VirtualClock clock;
  private final List<Notification> received = new ArrayList<>();
  private boolean managed;
  private boolean gone;
  private Optional<Duration> watchdog = Optional.empty();

  /** One message as the manager received it, and when. */
  public record Notification(Instant at, String message) {
    public Notification {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(message, "message");
    }

    /** Whether the message carries the assignment {@code line} (e.g. {@code READY=1}). */
    public boolean has(String line) {
      return message.lines().anyMatch(line::equals);
    }

    @Override
    public String toString() {
      return at + " " + message.replace('\n', ' ');
    }
  }

  public SimServiceNotifier(PortGate gate, VirtualClock clock) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  // ---------------------------------------------------------------- the port

  @Override
  public boolean enabled() {
    synchronized (gate.monitor()) {
      return managed;
    }
  }

  @Override
  public void ready() throws IOException {
    send("ready", "READY=1");
  }

  @Override
  public void reloading() throws IOException {
    send("reloading", null);
  }

  @Override
  public void stopping() throws IOException {
    send("stopping", "STOPPING=1");
  }

  @Override
  public void status(String line) throws IOException {
    Objects.requireNonNull(line, "line");
    if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0 || line.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "a service status is one line without NUL: '" + line.replace("\n", "\\n") + "'");
    }
    send("status", "STATUS=" + line);
  }

  @Override
  public void watchdog() throws IOException {
    send("watchdog", "WATCHDOG=1");
  }

  @Override
  public Optional<Duration> watchdogInterval() {
    synchronized (gate.monitor()) {
      return managed ? watchdog : Optional.empty();
    }
  }

  private void send(String method, String message) throws IOException {
    synchronized (gate.monitor()) {
      if (!managed) {
        return;
      }
      String text =
          message != null ? message : "RELOADING=1\nMONOTONIC_USEC=" + clock.nanoTime() / 1_000L;
      gate.call(PORT, method, false, PortGate.args(text.replace('\n', ' ')), () -> {
        if (gone) {
          throw new HostIOException(Errno.ECONNREFUSED, "notify " + method, "@sim-notify");
        }
        received.add(new Notification(clock.now(), text));
        return null;
      });
    }
  }

  // ---------------------------------------------------------------- test controls (not journaled)

  /** The process runs under a notify-aware manager that watches no keep-alives. */
  public void underManager() {
    synchronized (gate.monitor()) {
      managed = true;
      gone = false;
      watchdog = Optional.empty();
    }
  }

  /** The process runs under a notify-aware manager expecting a keep-alive within every {@code interval}. */
  public void underManager(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("a watchdog interval is positive: " + interval);
    }
    synchronized (gate.monitor()) {
      managed = true;
      gone = false;
      watchdog = Optional.of(interval);
    }
  }

  /** The process runs without a manager (no {@code NOTIFY_SOCKET}): notifications do nothing. */
  public void withoutManager() {
    synchronized (gate.monitor()) {
      managed = false;
      gone = false;
      watchdog = Optional.empty();
    }
  }

  /** The manager stopped listening: every later message fails with {@code ECONNREFUSED}. */
  public void managerGone() {
    synchronized (gate.monitor()) {
      gone = true;
    }
  }

  /** What the manager received, oldest first. */
  public List<Notification> notifications() {
    synchronized (gate.monitor()) {
      return List.copyOf(received);
    }
  }

  /** The messages the manager received, oldest first, without their times. */
  public List<String> messages() {
    return notifications().stream().map(Notification::message).toList();
  }

  /**
   * The longest stretch without a keep-alive from the first {@code READY=1} until {@code until}
   * (each {@code WATCHDOG=1} or {@code READY=1} restarts it); empty before {@code READY=1}. What a
   * manager's watchdog compares with its interval.
   */
  public Optional<Duration> longestSilenceSinceReady(Instant until) {
    Objects.requireNonNull(until, "until");
    synchronized (gate.monitor()) {
      Instant last = null;
      Duration longest = Duration.ZERO;
      for (Notification n : received) {
        boolean keepAlive = n.has("WATCHDOG=1") || n.has("READY=1");
        if (!keepAlive || (last == null && !n.has("READY=1"))) {
          continue;
        }
        if (last != null) {
          longest = max(longest, Duration.between(last, n.at()));
        }
        last = n.at();
      }
      if (last == null) {
        return Optional.empty();
      }
      return Optional.of(max(longest, Duration.between(last, until)));
    }
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
