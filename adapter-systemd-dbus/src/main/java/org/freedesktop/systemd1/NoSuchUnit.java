package org.freedesktop.systemd1;

import org.freedesktop.dbus.exceptions.DBusExecutionException;

/**
 * systemd's {@code org.freedesktop.systemd1.NoSuchUnit} error. dbus-java turns a D-Bus error reply
 * into the exception class whose fully-qualified name equals the error name, so this class must
 * live in this package under this name for the error to be recognised without parsing messages.
 */
public class NoSuchUnit extends DBusExecutionException {
  private static final long serialVersionUID = 1L;

  public NoSuchUnit(String message) {
    super(message);
  }
}
