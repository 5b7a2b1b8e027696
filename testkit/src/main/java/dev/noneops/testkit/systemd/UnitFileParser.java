package dev.noneops.testkit.systemd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses the INI-like syntax of systemd unit files and drop-ins: {@code [Section]} headers,
 * {@code Key=Value} lines, {@code #} and {@code ;} comments, and lines continued with a trailing
 * backslash (joined with a space, as systemd does).
 */
final class UnitFileParser {
  /** One assignment, in file order. */
  record Setting(String section, String key, String value) {}

  private UnitFileParser() {}

  static List<Setting> parse(String content, String source) {
    List<Setting> out = new ArrayList<>();
    String section = "";
    String[] lines = content.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = stripCr(lines[i]).strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      StringBuilder logical = new StringBuilder(line);
      while (endsWithContinuation(logical) && i + 1 < lines.length) {
        logical.setLength(logical.length() - 1);
        String next = stripCr(lines[++i]).strip();
        if (next.startsWith("#") || next.startsWith(";")) {
          continue;
        }
        logical.append(' ').append(next);
      }
      line = logical.toString().strip();
      if (line.startsWith("[")) {
        if (!line.endsWith("]")) {
          throw new IllegalArgumentException(source + ": malformed section header '" + line + "'");
        }
        section = line.substring(1, line.length() - 1).strip();
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(source + ": line without '=': '" + line + "'");
      }
      if (section.isEmpty()) {
        throw new IllegalArgumentException(
            source + ": assignment outside of a section: '" + line + "'");
      }
      out.add(new Setting(
          section, line.substring(0, eq).strip(), line.substring(eq + 1).strip()));
    }
    return out;
  }

  private static boolean endsWithContinuation(StringBuilder line) {
    return line.length() > 0 && line.charAt(line.length() - 1) == '\\';
  }

  private static String stripCr(String s) {
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  /**
   * Splits a command line or list value into words the way systemd does: whitespace separates,
   * single and double quotes group, backslash escapes the next character ({@code \n}, {@code \t}
   * are decoded inside double quotes and bare words alike).
   */
  static List<String> words(String value) {
    List<String> out = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (quote == 0 && Character.isWhitespace(c)) {
        if (word != null) {
          out.add(word.toString());
          word = null;
        }
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (c == '\\' && i + 1 < value.length() && quote != '\'') {
        char n = value.charAt(++i);
        word.append(
            switch (n) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case 's' -> ' ';
              default -> n;
            });
      } else if (quote == 0 && (c == '"' || c == '\'')) {
        quote = c;
      } else if (quote != 0 && c == quote) {
        quote = 0;
      } else {
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unbalanced quotes in '" + value + "'");
    }
    if (word != null) {
      out.add(word.toString());
    }
    return out;
  }

  /** Parses {@code KEY=value} lines of an environment file (comments, blank lines and quotes allowed). */
  static void parseEnvironmentFile(String content, Map<String, String> into) {
    for (String raw : content.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("export ")) {
        line = line.substring("export ".length()).strip();
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String value = line.substring(eq + 1).strip();
      if (value.length() >= 2
          && ((value.startsWith("\"") && value.endsWith("\""))
              || (value.startsWith("'") && value.endsWith("'")))) {
        value = value.substring(1, value.length() - 1);
      }
      into.put(line.substring(0, eq).strip(), value);
    }
  }
}
