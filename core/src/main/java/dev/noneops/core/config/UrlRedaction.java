package dev.noneops.core.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the secrets out of the URLs in a text before it leaves the host (the Machine's status) or
 * goes to a log: a URL's user information becomes {@code REDACTED}, and every value of its query
 * and fragment too, their keys kept so an operator can still tell which URL it was ({@code
 * ?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED}). Scheme, host, port and path stay: they
 * say where the node went. Punctuation that ends a sentence after a URL stays outside it.
 */
public final class UrlRedaction {
  /** What a redacted secret reads as. */
  public static final String REDACTED = "REDACTED";

  private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>`]+");
  private static final String SENTENCE_END = ".,;:!?)]}";

  private UrlRedaction() {}

  /** {@code text} with every URL in it redacted; null stays null. */
  public static String redact(String text) {
    if (text == null || !text.contains("://")) {
      return text;
    }
    Matcher m = URL.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    while (m.find()) {
      String url = m.group();
      int end = url.length();
      while (end > 0 && SENTENCE_END.indexOf(url.charAt(end - 1)) >= 0) {
        end--;
      }
      m.appendReplacement(
          out, Matcher.quoteReplacement(redactUrl(url.substring(0, end)) + url.substring(end)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String redactUrl(String url) {
    int authorityStart = url.indexOf("://") + 3;
    int authorityEnd = authorityStart;
    while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
      authorityEnd++;
    }
    String authority = url.substring(authorityStart, authorityEnd);
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      authority = REDACTED + authority.substring(at);
    }
    StringBuilder out = new StringBuilder(url.substring(0, authorityStart)).append(authority);
    String rest = url.substring(authorityEnd);
    int query = rest.indexOf('?');
    int fragment = rest.indexOf('#');
    if (fragment >= 0 && query > fragment) {
      query = -1;
    }
    int pathEnd = query >= 0 ? query : fragment >= 0 ? fragment : rest.length();
    out.append(rest, 0, pathEnd);
    if (query >= 0) {
      int queryEnd = fragment > query ? fragment : rest.length();
      out.append('?').append(values(rest.substring(query + 1, queryEnd)));
    }
    if (fragment >= 0) {
      out.append('#').append(values(rest.substring(fragment + 1)));
    }
    return out.toString();
  }

  /** {@code key=value&...} with every value redacted, a bare word taken for a value. */
  private static String values(String parameters) {
    if (parameters.isEmpty()) {
      return parameters;
    }
    StringBuilder out = new StringBuilder();
    boolean first = true;
    for (String parameter : parameters.split("&", -1)) {
      if (!first) {
        out.append('&');
      }
      first = false;
      int eq = parameter.indexOf('=');
      if (eq >= 0) {
        out.append(parameter, 0, eq + 1).append(REDACTED);
      } else if (!parameter.isEmpty()) {
        out.append(REDACTED);
      }
    }
    return out.toString();
  }
}
