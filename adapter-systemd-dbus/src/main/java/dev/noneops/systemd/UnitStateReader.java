package dev.noneops.systemd;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.internal.dbus.SystemdManager;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.UInt64;

/**
 * Reads a {@link UnitStatus} from a unit object through {@code org.freedesktop.DBus.Properties}:
 * {@code LoadState}, {@code ActiveState}, {@code SubState}, {@code FragmentPath} and
 * {@code ActiveEnterTimestamp} (microseconds since the epoch, 0 for never) of the Unit interface, and for services {@code MainPID} ({@code u}) and {@code Result} of the Service
 * interface.
 */
final class UnitStateReader {
  static final String UNIT_INTERFACE = "org.freedesktop.systemd1.Unit";
  static final String SERVICE_INTERFACE = "org.freedesktop.systemd1.Service";
  static final String MANAGER_INTERFACE = "org.freedesktop.systemd1.Manager";

  private final DBusConnection connection;

  UnitStateReader(DBusConnection connection) {
    this.connection = connection;
  }

  UnitStatus read(String unit, DBusPath unitPath) {
    Properties properties = propertiesOf(unit, unitPath);
    try {
      LoadState load = LoadState.fromSystemd(properties.<String>Get(UNIT_INTERFACE, "LoadState"));
      ActiveState active =
          ActiveState.fromSystemd(properties.<String>Get(UNIT_INTERFACE, "ActiveState"));
      String sub = properties.Get(UNIT_INTERFACE, "SubState");
      String fragmentPath = properties.Get(UNIT_INTERFACE, "FragmentPath");
      UInt64 entered = properties.Get(UNIT_INTERFACE, "ActiveEnterTimestamp");
      Optional<Instant> activeEnteredAt = entered.longValue() == 0
          ? Optional.empty()
          : Optional.of(Instant.EPOCH.plus(entered.longValue(), ChronoUnit.MICROS));
      long mainPid = 0;
      String result = "";
      if (unit.endsWith(".service")) {
        UInt32 pid = properties.Get(SERVICE_INTERFACE, "MainPID");
        mainPid = pid.longValue();
        result = properties.Get(SERVICE_INTERFACE, "Result");
      }
      return new UnitStatus(
          unit, load, active, sub, mainPid, fragmentPath, result, activeEnteredAt);
    } catch (ClassCastException | IllegalArgumentException unexpected) {
      throw new SystemdException(
          SystemdException.Kind.OTHER,
          unit,
          "systemd: unexpected property value for " + unit + ": " + unexpected.getMessage(),
          unexpected);
    } catch (RuntimeException failure) {
      throw SystemdErrors.fromCall("read properties of", unit, failure);
    }
  }

  /** The manager's {@code Version} and {@code SystemState}. */
  ManagerState manager() {
    Properties properties = propertiesOf("", new DBusPath(SystemdManager.OBJECT_PATH));
    try {
      return new ManagerState(
          properties.<String>Get(MANAGER_INTERFACE, "Version"),
          properties.<String>Get(MANAGER_INTERFACE, "SystemState"));
    } catch (ClassCastException unexpected) {
      throw new SystemdException(
          SystemdException.Kind.OTHER,
          "",
          "systemd: unexpected manager property value: " + unexpected.getMessage(),
          unexpected);
    } catch (RuntimeException failure) {
      throw SystemdErrors.fromCall("read the manager's properties", "", failure);
    }
  }

  private Properties propertiesOf(String unit, DBusPath unitPath) {
    try {
      return connection.getRemoteObject(
          SystemdManager.BUS_NAME, unitPath.getPath(), Properties.class);
    } catch (DBusException failure) {
      throw SystemdErrors.fromSetup("read properties of", unit, failure);
    }
  }
}
