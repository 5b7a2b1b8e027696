package dev.noneops.systemd;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.internal.dbus.SystemdManager;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt32;

/**
 * Reads a {@link UnitStatus} from a unit object through {@code org.freedesktop.DBus.Properties}:
 * {@code LoadState}, {@code ActiveState}, {@code SubState}, {@code FragmentPath} of the Unit
 * interface, and for services {@code MainPID} ({@code u}) and {@code Result} of the Service
 * interface.
 */
final class UnitStateReader {
  static final String UNIT_INTERFACE = "org.freedesktop.systemd1.Unit";
  static final String SERVICE_INTERFACE = "org.freedesktop.systemd1.Service";

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
      long mainPid = 0;
      String result = "";
      if (unit.endsWith(".service")) {
        UInt32 pid = properties.Get(SERVICE_INTERFACE, "MainPID");
        mainPid = pid.longValue();
        result = properties.Get(SERVICE_INTERFACE, "Result");
      }
      return new UnitStatus(unit, load, active, sub, mainPid, fragmentPath, result);
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

  private Properties propertiesOf(String unit, DBusPath unitPath) {
    try {
      return connection.getRemoteObject(
          SystemdManager.BUS_NAME, unitPath.getPath(), Properties.class);
    } catch (DBusException failure) {
      throw SystemdErrors.fromSetup("read properties of", unit, failure);
    }
  }
}
