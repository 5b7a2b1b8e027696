package dev.noneops.core.config;

/** How configuration paths and values appear in violation messages. */
final class ConfigText {
  private static final int MAX_QUOTED = 80;

  private ConfigText() {}

  /** {@code parent.key}, or {@code parent["key"]} when the key is not a plain identifier. */
  static String child(String parent, String key) {
    if (key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return parent.isEmpty() ? key : parent + "." + key;
    }
    return (parent.isEmpty() ? "$" : parent) + "[" + jsonString(key) + "]";
  }

  /** {@code parent["key"]}: for map entries such as labels, whose keys are data. */
  static String entry(String parent, String key) {
    return parent + "[" + jsonString(key) + "]";
  }

  static String index(String parent, int i) {
    return parent + "[" + i + "]";
  }

  /**
   * A value in single quotes for a message, with control characters escaped (so a NUL or a
   * newline cannot hide or forge anything) and long values cut short.
   */
  static String quote(String value) {
    String shown = value.length() > MAX_QUOTED
        ? value.substring(0, MAX_QUOTED) + "...(" + value.length() + " characters)"
        : value;
    return "'" + escapeControls(shown) + "'";
  }

  private static String jsonString(String s) {
    return "\"" + escapeControls(s.replace("\\", "\\\\").replace("\"", "\\\"")) + "\"";
  }

  private static String escapeControls(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
