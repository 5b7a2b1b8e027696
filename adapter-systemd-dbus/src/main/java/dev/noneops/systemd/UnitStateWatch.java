package dev.noneops.systemd;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.Properties.PropertiesChanged;
import org.freedesktop.dbus.matchrules.DBusMatchRule;
import org.freedesktop.dbus.matchrules.DBusMatchRuleBuilder;
import org.freedesktop.dbus.types.Variant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link DbusSystemd#watch}: one match rule for {@code PropertiesChanged}
 * under systemd's unit objects (the manager's {@code Subscribe()} of the adapter's connection has
 * systemd send them), filtered here by the watched units' object paths. A unit's object path
 * follows from its name, so a unit that is not loaded yet, or is unloaded and loaded again, keeps
 * its watch. The signal handler only hands the change to the watch's own thread, which reads the
 * unit's status and tells the consumer when the {@code ActiveState} moved.
 */
final class UnitStateWatch implements Subscription {
  private static final Logger LOG = LoggerFactory.getLogger(UnitStateWatch.class);
  private static final String UNIT_OBJECTS = "/org/freedesktop/systemd1/unit";

  private final Map<String, String> unitsByPath = new HashMap<>();
  private final Map<String, ActiveState> last = new ConcurrentHashMap<>();
  private final Function<String, UnitStatus> status;
  private final Consumer<UnitStatus> onChange;
  private final ExecutorService dispatcher;
  private final Object delivering = new Object();
  private AutoCloseable registration; // guarded by delivering
  private volatile boolean closed;

  private UnitStateWatch(
      Set<String> units, Function<String, UnitStatus> status, Consumer<UnitStatus> onChange) {
    for (String unit : units) {
      unitsByPath.put(objectPath(UnitNames.requireUnitName(unit)), unit);
    }
    this.status = status;
    this.onChange = onChange;
    this.dispatcher = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "systemd-unit-watch");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts a watch: the units' states now are where the changes count from. */
  static UnitStateWatch start(
      DBusConnection connection,
      Set<String> units,
      Function<String, UnitStatus> status,
      Consumer<UnitStatus> onChange) {
    UnitStateWatch watch = new UnitStateWatch(units, status, onChange);
    try {
      watch.register(connection);
      for (String unit : units) {
        watch.last.put(unit, status.apply(unit).active());
      }
      return watch;
    } catch (RuntimeException failure) {
      watch.close();
      throw failure;
    }
  }

  /**
   * Moves the watch to a new {@code connection} (the old one broke): its signals from now on, and
   * each unit whose state is not the one last told is told as it is now, a change the watch
   * missed while it had no connection.
   */
  void attach(DBusConnection connection) {
    AutoCloseable old;
    synchronized (delivering) {
      if (closed) {
        return;
      }
      old = registration;
    }
    unregister(old);
    register(connection);
    for (String unit : unitsByPath.values()) {
      UnitStatus now;
      try {
        now = status.apply(unit);
      } catch (SystemdException | IllegalArgumentException unreadable) {
        LOG.debug("cannot read the state of {} after reconnecting", unit, unreadable);
        continue;
      }
      try {
        dispatcher.execute(() -> deliver(unit, now.active(), Optional.of(now.sub())));
      } catch (RuntimeException rejected) {
        LOG.debug("a state change of {} after the watch was closed", unit, rejected);
      }
    }
  }

  private void register(DBusConnection connection) {
    try {
      DBusMatchRule rule = DBusMatchRuleBuilder.create()
          .withType(PropertiesChanged.class)
          .withPathNamespace(UNIT_OBJECTS)
          .build();
      AutoCloseable added = connection.addSigHandler(rule, this::signalled);
      synchronized (delivering) {
        if (!closed) {
          registration = added;
          return;
        }
      }
      unregister(added);
    } catch (DBusException failure) {
      throw SystemdErrors.fromSetup(
          "watch the state of", String.join(" ", unitsByPath.values()), failure);
    }
  }

  private static void unregister(AutoCloseable registration) {
    if (registration == null) {
      return;
    }
    try {
      registration.close();
    } catch (Exception failure) {
      LOG.debug("removing the unit watch's PropertiesChanged handler failed", failure);
    }
  }

  /** systemd's object path of a unit: {@code bus_label_escape} of its name. */
  static String objectPath(String unit) {
    StringBuilder path = new StringBuilder(UNIT_OBJECTS).append('/');
    for (int i = 0; i < unit.length(); i++) {
      char c = unit.charAt(i);
      boolean plain =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
      if (plain) {
        path.append(c);
      } else {
        path.append('_')
            .append(Character.forDigit(c >> 4 & 0xf, 16))
            .append(Character.forDigit(c & 0xf, 16));
      }
    }
    return path.toString();
  }

  /** On dbus-java's signal thread: hands the change over and returns. */
  private void signalled(PropertiesChanged signal) {
    String unit = unitsByPath.get(signal.getPath());
    if (unit == null
        || closed
        || !UnitStateReader.UNIT_INTERFACE.equals(signal.getInterfaceName())) {
      return;
    }
    Variant<?> active = signal.getPropertiesChanged().get("ActiveState");
    if (active == null || !(active.getValue() instanceof String state)) {
      return;
    }
    ActiveState now;
    try {
      now = ActiveState.fromSystemd(state);
    } catch (IllegalArgumentException unknown) {
      LOG.debug("{} is in a state this adapter does not know: {}", unit, state);
      return;
    }
    Variant<?> subState = signal.getPropertiesChanged().get("SubState");
    Optional<String> sub = subState != null && subState.getValue() instanceof String named
        ? Optional.of(named)
        : Optional.empty();
    try {
      dispatcher.execute(() -> deliver(unit, now, sub));
    } catch (RuntimeException rejected) {
      LOG.debug("a state change of {} after the watch was closed", unit, rejected);
    }
  }

  /** On the watch's thread: the status as read now, with the states the signal carried. */
  private void deliver(String unit, ActiveState active, Optional<String> sub) {
    synchronized (delivering) {
      if (closed || last.put(unit, active) == active) {
        return;
      }
      UnitStatus now;
      try {
        now = status.apply(unit);
      } catch (SystemdException | IllegalArgumentException unreadable) {
        LOG.debug("cannot read the state of {} after a change", unit, unreadable);
        return;
      }
      onChange.accept(new UnitStatus(
          unit,
          now.load(),
          active,
          sub.orElse(now.sub()),
          now.mainPid(),
          now.fragmentPath(),
          now.result(),
          now.activeEnteredAt()));
    }
  }

  @Override
  public void close() {
    synchronized (delivering) {
      if (closed) {
        return;
      }
      closed = true;
    }
    dispatcher.shutdownNow();
    AutoCloseable current;
    synchronized (delivering) {
      current = registration;
    }
    unregister(current);
  }
}
