package dev.noneops.acceptance.architecture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The lines an API listing gained ({@code +}) and lost ({@code -}), each member named with its type. */
final class ApiDiff {
  private ApiDiff() {}

  static List<String> between(List<String> expected, List<String> actual) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    qualified(expected).forEach(line -> counts.merge(line, -1, Integer::sum));
    qualified(actual).forEach(line -> counts.merge(line, 1, Integer::sum));
    List<String> changes = new ArrayList<>();
    counts.forEach((line, count) -> {
      for (int i = 0; i < Math.abs(count); i++) {
        changes.add((count > 0 ? "+ " : "- ") + line);
      }
    });
    return changes;
  }

  /** Each line of a listing, a member line prefixed with its type's header. */
  private static List<String> qualified(List<String> listing) {
    List<String> out = new ArrayList<>();
    String type = "";
    for (String line : listing) {
      if (line.equals("}") || line.isBlank()) {
        continue;
      }
      if (line.startsWith("  ")) {
        out.add(type + " :: " + line.strip());
      } else {
        type = line.endsWith(" {") ? line.substring(0, line.length() - 2) : line;
        out.add(type);
      }
    }
    return out;
  }
}
