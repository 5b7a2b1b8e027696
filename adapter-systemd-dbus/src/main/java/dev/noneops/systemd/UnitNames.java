package dev.noneops.systemd;

import java.util.regex.Pattern;

/**
 * Checks unit names before they reach systemd, so bad input fails with an error naming it rather
 * than with systemd's {@code InvalidArgs}. The rules are systemd's {@code unit_name_is_valid()}:
 * at most 255 characters of {@code [A-Za-z0-9:_.\-@\\]} ending in a known unit type suffix.
 */
final class UnitNames {
  private static final int MAX_LENGTH = 255;
  private static final Pattern UNIT_NAME = Pattern.compile(
      "[A-Za-z0-9:_.\\\\@-]+\\.(service|socket|target|device|mount|automount|swap|timer|path|slice|scope)");

  private UnitNames() {}

  /** Returns {@code name} if it is a valid unit name. */
  static String requireUnitName(String name) {
    if (name == null) {
      throw new IllegalArgumentException("unit name must not be null");
    }
    if (name.length() > MAX_LENGTH || !UNIT_NAME.matcher(name).matches() || name.startsWith(".")) {
      throw new IllegalArgumentException(
          "not a valid systemd unit name (expected e.g. kubelet.service): '" + name + "'");
    }
    return name;
  }

  /** Returns {@code file} if it is a unit name or an absolute path whose file name is one. */
  static String requireUnitFile(String file) {
    if (file == null) {
      throw new IllegalArgumentException("unit file must not be null");
    }
    if (file.startsWith("/")) {
      String fileName = file.substring(file.lastIndexOf('/') + 1);
      if (fileName.isEmpty() || !UNIT_NAME.matcher(fileName).matches()) {
        throw new IllegalArgumentException(
            "not a unit file path (expected e.g. /etc/systemd/system/kubelet.service): '" + file
                + "'");
      }
      return file;
    }
    return requireUnitName(file);
  }
}
