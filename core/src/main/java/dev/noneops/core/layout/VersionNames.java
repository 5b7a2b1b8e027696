package dev.noneops.core.layout;

import java.util.regex.Pattern;

/**
 * The rule for version directory names: {@code [0-9A-Za-z._+-]}, 1 to {@value #MAX_LENGTH}
 * characters, not starting with a dot, never {@code .} or {@code ..}, so a name can never escape
 * the layout nor collide with its bookkeeping entries ({@code .lock}, {@code .staging}).
 */
public final class VersionNames {
  public static final int MAX_LENGTH = 128;
  private static final Pattern SAFE = Pattern.compile("[0-9A-Za-z_+-][0-9A-Za-z._+-]*");

  private VersionNames() {}

  public static boolean isSafe(String name) {
    return name != null
        && !name.isEmpty()
        && name.length() <= MAX_LENGTH
        && SAFE.matcher(name).matches()
        && !name.contains("..")
        && !name.equals(Layout.CURRENT)
        && !name.equals(Layout.CONFSNAP);
  }

  /** Returns {@code name}, or throws naming why it cannot be a version directory. */
  public static String requireSafe(String name) {
    if (!isSafe(name)) {
      throw new IllegalArgumentException("not a safe version directory name: '" + name + "'");
    }
    return name;
  }
}
