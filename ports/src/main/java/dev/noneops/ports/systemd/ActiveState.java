package dev.noneops.ports.systemd;

import java.util.Locale;

/** A unit's {@code ActiveState} property. */
public enum ActiveState {
  ACTIVE,
  RELOADING,
  INACTIVE,
  FAILED,
  ACTIVATING,
  DEACTIVATING,
  MAINTENANCE,
  REFRESHING;

  /** The constant for systemd's lower-case state string. */
  public static ActiveState fromSystemd(String state) {
    return valueOf(state.toUpperCase(Locale.ROOT));
  }
}
