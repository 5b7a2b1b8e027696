package dev.noneops.systemd;

import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import org.freedesktop.dbus.errors.AccessDenied;
import org.freedesktop.dbus.errors.NoReply;
import org.freedesktop.dbus.errors.ServiceUnknown;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.NotConnected;
import org.freedesktop.dbus.interfaces.FatalException;
import org.freedesktop.systemd1.NoSuchUnit;

/**
 * Turns dbus-java's exceptions into {@link SystemdException}s of the right {@link Kind}.
 *
 * <p>dbus-java keeps the D-Bus error name only as the class of the exception it throws (see
 * {@link NoSuchUnit}); the one refusal that has no class of its own, polkit's interactive
 * authorization demand, is recognised by sd-bus's fixed message.
 */
final class SystemdErrors {
  /** The message sd-bus puts on {@code org.freedesktop.DBus.Error.InteractiveAuthorizationRequired}. */
  static final String INTERACTIVE_AUTHORIZATION_REQUIRED = "Interactive authentication required.";

  private SystemdErrors() {}

  /** The exception for a failed call of {@code action} about {@code unit} (empty for the manager). */
  static SystemdException fromCall(String action, String unit, RuntimeException failure) {
    if (failure instanceof SystemdException alreadyMapped) {
      return alreadyMapped;
    }
    return new SystemdException(kindOf(failure), unit, describe(action, unit, failure), failure);
  }

  /** The exception for a checked dbus-java failure (registering a handler, a proxy, connecting). */
  static SystemdException fromSetup(String action, String unit, DBusException failure) {
    return new SystemdException(Kind.UNREACHABLE, unit, describe(action, unit, failure), failure);
  }

  static Kind kindOf(RuntimeException failure) {
    if (failure instanceof NoSuchUnit) {
      return Kind.NO_SUCH_UNIT;
    }
    if (failure instanceof AccessDenied
        || INTERACTIVE_AUTHORIZATION_REQUIRED.equals(failure.getMessage())) {
      return Kind.ACCESS_DENIED;
    }
    if (failure instanceof NotConnected
        || failure instanceof NoReply
        || failure instanceof ServiceUnknown
        || failure instanceof FatalException) {
      return Kind.UNREACHABLE;
    }
    return Kind.OTHER;
  }

  private static String describe(String action, String unit, Exception failure) {
    String subject = unit == null || unit.isEmpty() ? action : action + " " + unit;
    String detail = failure.getMessage() == null || failure.getMessage().isBlank()
        ? failure.getClass().getSimpleName()
        : failure.getMessage();
    return "systemd: " + subject + " failed: " + detail;
  }
}
