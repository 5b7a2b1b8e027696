package dev.noneops.systemd;

import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.freedesktop.dbus.connections.IDisconnectCallback;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;

/**
 * Opens the one private (unshared) D-Bus connection an adapter owns, over dbus-java's native
 * unix-socket transport, and turns every way that can fail into a clear {@link SystemdException}.
 */
final class BusConnector {
  static final String SYSTEM_BUS_VARIABLE = "DBUS_SYSTEM_BUS_ADDRESS";
  static final String DEFAULT_SYSTEM_BUS = "unix:path=/run/dbus/system_bus_socket";
  private static final String UNIX_PATH = "unix:path=";
  /**
   * How long dbus-java keeps retrying a refused connect (it retries every 500 ms; its default of
   * 10 s is long for a CLI facing a dead bus).
   */
  static final int CONNECT_RETRY_MILLIS = 2_000;

  private BusConnector() {}

  /** The system bus: {@code $DBUS_SYSTEM_BUS_ADDRESS} when set, else systemd's default socket. */
  static String systemBusAddress(Map<String, String> environment) {
    String configured = environment.get(SYSTEM_BUS_VARIABLE);
    if (configured == null || configured.isBlank()) {
      return DEFAULT_SYSTEM_BUS;
    }
    // A bus address variable may list alternatives separated by ';'; the first is the primary.
    return configured.split(";", 2)[0].trim();
  }

  /** Returns {@code address} if the native transport can open it: {@code unix:path=<absolute path>}. */
  static String requireUnixPathAddress(String address) {
    if (address == null) {
      throw new IllegalArgumentException("D-Bus address must not be null");
    }
    if (!address.startsWith(UNIX_PATH)
        || address.length() == UNIX_PATH.length()
        || address.charAt(UNIX_PATH.length()) != '/') {
      throw new IllegalArgumentException(
          "D-Bus address must be unix:path=<absolute socket path> (abstract and TCP sockets are"
              + " not supported): '" + address + "'");
    }
    return address;
  }

  /**
   * The socket file of a {@code unix:path=} address: the value up to the next {@code ,key=value},
   * with the D-Bus {@code %xx} escapes decoded.
   */
  static Path socketOf(String address) {
    String rest = requireUnixPathAddress(address).substring(UNIX_PATH.length());
    int comma = rest.indexOf(',');
    return Path.of(unescape(comma < 0 ? rest : rest.substring(0, comma)));
  }

  private static String unescape(String value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < value.length()) {
      int c = value.codePointAt(i);
      if (c == '%'
          && i + 2 < value.length()
          && isHex(value.charAt(i + 1))
          && isHex(value.charAt(i + 2))) {
        bytes.write(Integer.parseInt(value.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        byte[] encoded = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        bytes.write(encoded, 0, encoded.length);
        i += Character.charCount(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0;
  }

  static DBusConnection open(
      String address, MachineIdLocator machineIds, IDisconnectCallback onDisconnect) {
    requireUnixPathAddress(address);
    if (machineIds.locate().isEmpty()) {
      throw new SystemdException(
          Kind.UNREACHABLE,
          "",
          "cannot connect to D-Bus at " + address + ": " + machineIds.missingMessage());
    }
    Path socket = socketOf(address);
    if (!Files.exists(socket)) {
      throw new SystemdException(
          Kind.UNREACHABLE,
          "",
          "cannot connect to D-Bus at " + address + ": no socket at " + socket);
    }
    try {
      return DBusConnectionBuilder.forAddress(address)
          .withShared(false)
          .withDisconnectCallback(onDisconnect)
          .transportConfig()
          .withTimeout(CONNECT_RETRY_MILLIS)
          .back()
          .build();
    } catch (DBusException | RuntimeException failure) {
      throw new SystemdException(
          Kind.UNREACHABLE,
          "",
          "cannot connect to D-Bus at " + address + ": " + failure.getMessage(),
          failure);
    }
  }
}
