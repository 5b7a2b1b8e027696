package dev.noneops.ports.systemd;

import java.util.Objects;

/**
 * The systemd manager itself, as {@code systemctl --version} and {@code systemctl
 * is-system-running} report it.
 *
 * @param version the manager's version, e.g. {@code 252} or {@code 252.38-1~deb12u1}
 * @param systemState {@code initializing}, {@code starting}, {@code running}, {@code degraded},
 *     {@code maintenance} or {@code stopping}
 */
public record ManagerState(String version, String systemState) {
  public ManagerState {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(systemState, "systemState");
  }

  /** The major version: the leading digits of {@link #version()}; 0 when it has none. */
  public int major() {
    int end = 0;
    while (end < version.length() && Character.isDigit(version.charAt(end)) && end < 9) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(version.substring(0, end));
  }
}
