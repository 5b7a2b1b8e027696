package dev.noneops.acceptance.architecture;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds class names written out with their package ({@code java.util.List}, {@code
 * dev.noneops.ports.HostPorts}) in Java code, outside {@code package} and {@code import}
 * statements, comments and string literals.
 */
final class QualifiedNames {
  private static final Pattern QUALIFIED = Pattern.compile(
      "(?<![\\w.])(?:java|javax|jdk|sun|dev|com|org|jnr|picocli|net)\\.(?:[a-z_][a-z0-9_]*\\.)+[A-Z]\\w*");

  private QualifiedNames() {}

  /** Each occurrence as {@code line: name}, in source order. */
  static List<String> in(String source) {
    List<String> found = new ArrayList<>();
    String[] lines = codeOnly(source).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.startsWith("package ") || line.startsWith("import ")) {
        continue;
      }
      Matcher m = QUALIFIED.matcher(lines[i]);
      while (m.find()) {
        found.add((i + 1) + ": " + m.group());
      }
    }
    return found;
  }

  /** The source with comments and string, text-block and character literals blanked out, lines kept. */
  static String codeOnly(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      int end;
      if (source.startsWith("//", i)) {
        end = source.indexOf('\n', i);
        end = end < 0 ? n : end;
      } else if (source.startsWith("/*", i)) {
        end = source.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        end = literalEnd(source, i + 3, "\"\"\"");
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        end = literalEnd(source, i + 1, String.valueOf(source.charAt(i)));
      } else {
        out.append(source.charAt(i++));
        continue;
      }
      for (int j = i; j < end; j++) {
        out.append(source.charAt(j) == '\n' ? '\n' : ' ');
      }
      i = end;
    }
    return out.toString();
  }

  private static int literalEnd(String source, int from, String quote) {
    int j = from;
    while (j < source.length()) {
      if (source.charAt(j) == '\\') {
        j += 2;
      } else if (source.startsWith(quote, j)) {
        return j + quote.length();
      } else {
        j++;
      }
    }
    return source.length();
  }
}
