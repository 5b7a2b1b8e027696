package dev.noneops.systemd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the D-Bus machine-id file the way dbus-java does ({@code DBUS_MACHINE_ID_LOCATION}, then
 * the usual files), so a host without one is reported with a message that says how to fix it
 * instead of dbus-java's "Cannot Resolve Session Bus Address".
 */
final class MachineIdLocator {
  static final String ENVIRONMENT_VARIABLE = "DBUS_MACHINE_ID_LOCATION";
  static final List<Path> DEFAULT_FILES = List.of(
      Path.of("/var/lib/dbus/machine-id"),
      Path.of("/usr/local/var/lib/dbus/machine-id"),
      Path.of("/etc/machine-id"));

  private final Map<String, String> environment;
  private final List<Path> defaultFiles;

  MachineIdLocator(Map<String, String> environment, List<Path> defaultFiles) {
    this.environment = Map.copyOf(environment);
    this.defaultFiles = List.copyOf(defaultFiles);
  }

  static MachineIdLocator forThisProcess() {
    return new MachineIdLocator(System.getenv(), DEFAULT_FILES);
  }

  /** The files consulted, in order. */
  List<Path> candidates() {
    List<Path> candidates = new ArrayList<>();
    String configured = environment.get(ENVIRONMENT_VARIABLE);
    if (configured != null && !configured.isBlank()) {
      candidates.add(Path.of(configured));
    }
    candidates.addAll(defaultFiles);
    return candidates;
  }

  /** The first candidate that exists and is not empty. */
  Optional<Path> locate() {
    return candidates().stream().filter(MachineIdLocator::nonEmptyFile).findFirst();
  }

  /** Explains that no machine id was found and how to provide one. */
  String missingMessage() {
    return "no D-Bus machine id: none of "
        + candidates()
        + " exists and is non-empty; create /etc/machine-id (systemd-machine-id-setup or"
        + " dbus-uuidgen --ensure=/etc/machine-id) or set "
        + ENVIRONMENT_VARIABLE
        + " to a file holding one";
  }

  private static boolean nonEmptyFile(Path path) {
    try {
      return Files.isRegularFile(path) && Files.size(path) > 0;
    } catch (IOException unreadable) {
      return false;
    }
  }
}
