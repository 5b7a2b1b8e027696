package dev.noneops.ports.systemd;

import java.util.Locale;

/** A unit's {@code LoadState} property: whether systemd found and parsed a unit file. */
public enum LoadState {
  LOADED,
  NOT_FOUND,
  BAD_SETTING,
  ERROR,
  MASKED,
  MERGED,
  STUB;

  /** The constant for systemd's state string ({@code "not-found"} → {@link #NOT_FOUND}). */
  public static LoadState fromSystemd(String state) {
    return valueOf(state.toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
