package dev.noneops.core.node.internal.render;

import java.util.regex.Pattern;

/**
 * Escaping of values for systemd unit files (systemd.syntax(7), systemd.service(5)). Every value
 * that reaches a unit file passes through one of these functions, so a value from configuration
 * can never start a new line, a new setting, a specifier or a variable expansion.
 */
public final class SystemdSyntax {
  private static final Pattern SAFE_ARG = Pattern.compile("[A-Za-z0-9_@%+=:,./$-]+");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
  private static final Pattern SECTION = Pattern.compile("[A-Za-z][A-Za-z0-9-]*");

  private SystemdSyntax() {}

  /**
   * A plain setting value ({@code Description=}, {@code After=}, {@code EnvironmentFile=}):
   * specifiers are escaped ({@code %} → {@code %%}); line breaks, NUL and other control
   * characters, surrounding whitespace and a trailing backslash (a line continuation) are
   * rejected.
   */
  public static String plainValue(String value) {
    requireNoControl("value", value);
    if (!value.equals(value.strip())) {
      throw new IllegalArgumentException("unit value has surrounding whitespace: '" + value + "'");
    }
    if (value.endsWith("\\")) {
      throw new IllegalArgumentException(
          "unit value ends with a backslash (line continuation): '" + value + "'");
    }
    return value.replace("%", "%%");
  }

  /**
   * One argument of an {@code Exec*=} command line, taken literally: {@code %} → {@code %%},
   * {@code $} → {@code $$}; an argument that is empty or holds anything beyond a conservative
   * set of characters is double-quoted with {@code \\} and {@code \"} escaped.
   */
  public static String execArg(String arg) {
    requireNoControl("command line argument", arg);
    String escaped = arg.replace("%", "%%").replace("$", "$$");
    if (!escaped.isEmpty() && SAFE_ARG.matcher(escaped).matches()) {
      return escaped;
    }
    return '"' + escaped.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** The program of a command line: an absolute path, escaped like any argument. */
  public static String execProgram(String program) {
    if (!program.startsWith("/")) {
      throw new IllegalArgumentException(
          "unit command must be an absolute path: '" + program + "'");
    }
    return execArg(program);
  }

  /** A {@code $NAME} reference that systemd replaces by the variable's value split at whitespace. */
  public static String execVariable(String name) {
    return "$" + envName(name);
  }

  /**
   * One {@code Environment=} assignment, quoted: {@code "NAME=value"} with {@code \\}, {@code \"}
   * and {@code %} escaped. systemd does not expand {@code $} in this setting.
   */
  public static String environment(String name, String value) {
    requireNoControl("environment value", value);
    String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%");
    return '"' + envName(name) + "=" + escaped + '"';
  }

  /** A valid environment variable name, or an error naming it. */
  public static String envName(String name) {
    if (!ENV_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not an environment variable name: '" + name + "'");
    }
    return name;
  }

  /** A valid setting name ({@code ExecStart}), or an error naming it. */
  public static String key(String key) {
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("not a unit setting name: '" + key + "'");
    }
    return key;
  }

  /** A valid section name ({@code Service}), or an error naming it. */
  public static String section(String name) {
    if (!SECTION.matcher(name).matches()) {
      throw new IllegalArgumentException("not a unit section name: '" + name + "'");
    }
    return name;
  }

  private static void requireNoControl(String what, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\n' || c == '\r') {
        throw new IllegalArgumentException(what + " contains a line break: '"
            + value.replace("\n", "\\n").replace("\r", "\\r") + "'");
      }
      if (c == 0) {
        throw new IllegalArgumentException(what + " contains a NUL character");
      }
      if (c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException(
            what + " contains control character U+" + String.format("%04X", (int) c));
      }
    }
  }
}
