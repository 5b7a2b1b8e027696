package dev.noneops.ports.download;

import java.util.Locale;
import java.util.regex.Pattern;

/** A SHA-256 digest as 64 lower-case hex characters. */
public record Sha256(String hex) {
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

  public Sha256 {
    hex = hex.trim().toLowerCase(Locale.ROOT);
    if (!HEX.matcher(hex).matches()) {
      throw new IllegalArgumentException("not a SHA-256 hex digest: '" + hex + "'");
    }
  }

  @Override
  public String toString() {
    return hex;
  }
}
