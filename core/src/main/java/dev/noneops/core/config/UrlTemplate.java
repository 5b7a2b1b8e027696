package dev.noneops.core.config;

import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The upstream download URL template syntax: Go {@code fmt} restricted to string arguments.
 * {@code %s} takes the next argument, {@code %[n]s} argument {@code n} (1-based, and the next
 * {@code %s} continues with {@code n+1}), {@code %%} is a literal percent sign. Every other verb is
 * rejected rather than rendered as Go's {@code %!d(string=...)} noise. Arguments a template does
 * not use are ignored, so a template may pin a URL outright.
 */
final class UrlTemplate {
  private UrlTemplate() {}

  /** Why {@code template} cannot be rendered with {@code argCount} arguments, or empty when it can. */
  public static Optional<String> problem(String template, int argCount) {
    try {
      render(template, Collections.nCopies(argCount, "x"));
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * {@code template} with its placeholders replaced by {@code args}.
   *
   * @throws IllegalArgumentException naming the first unsupported or out-of-range placeholder
   */
  public static String render(String template, List<String> args) {
    StringBuilder out = new StringBuilder(template.length() + 32);
    int next = 0;
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '%') {
        out.append(c);
        i++;
        continue;
      }
      if (i + 1 >= template.length()) {
        throw new IllegalArgumentException(
            "ends with a lone '%'; write %% for a literal percent sign");
      }
      char verb = template.charAt(i + 1);
      if (verb == '%') {
        out.append('%');
        i += 2;
      } else if (verb == 's') {
        out.append(argument(args, next, "%s"));
        next++;
        i += 2;
      } else if (verb == '[') {
        int close = template.indexOf(']', i + 2);
        String digits = close < 0 ? "" : template.substring(i + 2, close);
        if (close < 0
            || close + 1 >= template.length()
            || template.charAt(close + 1) != 's'
            || !digits.matches("[1-9][0-9]{0,2}")) {
          throw new IllegalArgumentException("has an unsupported placeholder at position " + (i + 1)
              + "; only %s, %[n]s and %% are allowed");
        }
        int index = Integer.parseInt(digits) - 1;
        out.append(argument(args, index, "%[" + digits + "]s"));
        next = index + 1;
        i = close + 2;
      } else {
        throw new IllegalArgumentException(
            "has an unsupported placeholder '%" + verb + "'; only %s, %[n]s and %% are allowed");
      }
    }
    return out.toString();
  }

  private static String argument(List<String> args, int index, String placeholder) {
    if (index >= args.size()) {
      throw new IllegalArgumentException(placeholder + " refers to argument " + (index + 1)
          + " but only " + args.size() + (args.size() == 1 ? " is" : " are") + " available");
    }
    return args.get(index);
  }
}
