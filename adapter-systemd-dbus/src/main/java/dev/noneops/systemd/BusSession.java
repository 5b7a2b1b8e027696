package dev.noneops.systemd;

import dev.noneops.systemd.internal.dbus.SystemdManager;
import dev.noneops.systemd.internal.dbus.SystemdManager.JobRemoved;
import java.io.IOException;
import org.freedesktop.dbus.connections.IDisconnectCallback;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusSigHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of a {@link DbusSystemd} to the bus, subscribed to the manager's signals: the
 * {@code JobRemoved} handler is registered before {@code Subscribe} is called, the order systemd
 * documents as race-free. A broken connection is not repaired; the adapter opens a new session.
 *
 * @param connection the unshared connection
 * @param manager the manager's object on it
 * @param states reads units' properties over it
 */
record BusSession(DBusConnection connection, SystemdManager manager, UnitStateReader states) {
  private static final Logger LOG = LoggerFactory.getLogger(BusSession.class);

  /**
   * Connects to {@code address} and subscribes: {@code jobRemoved} is told of every ended job,
   * {@code onDisconnect} when the connection breaks.
   *
   * @throws dev.noneops.ports.systemd.SystemdException of kind {@code UNREACHABLE} when the bus
   *     or systemd on it cannot be reached
   */
  static BusSession open(
      String address,
      MachineIdLocator machineIds,
      DBusSigHandler<JobRemoved> jobRemoved,
      IDisconnectCallback onDisconnect) {
    DBusConnection connection = BusConnector.open(address, machineIds, onDisconnect);
    try {
      SystemdManager manager = connection.getRemoteObject(
          SystemdManager.BUS_NAME, SystemdManager.OBJECT_PATH, SystemdManager.class);
      connection.addSigHandler(JobRemoved.class, jobRemoved);
      manager.Subscribe();
      return new BusSession(connection, manager, new UnitStateReader(connection));
    } catch (DBusException failure) {
      close(connection, address);
      throw SystemdErrors.fromSetup("subscribe to the manager at " + address, "", failure);
    } catch (RuntimeException failure) {
      close(connection, address);
      throw SystemdErrors.fromCall("subscribe to the manager at " + address, "", failure);
    }
  }

  /** Closes the connection, quietly: it may be broken already. */
  void close(String address) {
    close(connection, address);
  }

  private static void close(DBusConnection connection, String address) {
    try {
      connection.close();
    } catch (IOException | RuntimeException failure) {
      LOG.debug("closing the D-Bus connection to {} failed", address, failure);
    }
  }
}
